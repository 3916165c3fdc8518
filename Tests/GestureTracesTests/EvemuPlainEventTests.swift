import Foundation
import GestureEvaluation
import GestureTraces
import Testing

@Suite("evemu event lines: the fast reading of plain lines gives what the general reading gives")
struct EvemuPlainEventTests {
    /// The events of `line` after a minimal description, or the error's text.
    static func read(_ line: String) -> Result<[[Int64]], ReadFailure> {
        do {
            let trace = try Trace.decode(Data("N: x\nI: 0018 0000 0000 0000\n\(line)\n".utf8))
            return .success(trace.frames.flatMap(\.events).map { [Int64($0.type), Int64($0.code), Int64($0.value), $0.microseconds] })
        } catch {
            return .failure(ReadFailure(text: "\(error)"))
        }
    }

    /// Lines of every shape near the plain form: numbers of every width, signs, cases,
    /// blanks, comments and stray characters, from a fixed seed.
    static func lines() -> [String] {
        var generator = SplitMix64(seed: 0x5EED)
        let times = [
            "0.000000", "12.345678", "1.5", "999999999999.999999", "1000000000000.000000", "-0.000001", "12.", "12", "+1.0", "1.1234567",
        ]
        let hex = ["0", "3", "0003", "00035", "ffff", "FFFF", "10000", "abcd", "-1", "+3", "g1", ""]
        let values = ["0", "2470", "-1", "2147483647", "2147483648", "-2147483648", "-2147483649", "99999999999", "+5", "1.0", "-"]
        let tails = ["", " ", "\t", " # SYN_REPORT (0) ---------- +10ms", "#x", " x", "\r"]
        let blanks = [" ", "\t", "  ", ""]
        var result: [String] = []
        for _ in 0..<4000 {
            func pick(_ list: [String]) -> String { list[Int(generator.next() % UInt64(list.count))] }
            result.append(
                "E:" + pick(blanks) + pick(times) + pick(blanks) + pick(hex) + pick(blanks) + pick(hex) + pick(blanks) + pick(values)
                    + pick(tails))
        }
        return result
    }

    @Test("4,000 lines near the plain form read the same with a leading blank (the general reading) as without")
    func sameAsGeneral() {
        var plainRead = 0
        for line in Self.lines() {
            let fast = Self.read(line)
            let general = Self.read(" " + line)
            switch (fast, general) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(line.debugDescription)")
                plainRead += 1
            case (.failure, .failure): break
            default: Issue.record("\(line.debugDescription): \(fast) but with a leading blank \(general)")
            }
        }
        #expect(plainRead > 200, "too few lines were valid to compare: \(plainRead)")
    }
}

/// Why a line was refused.
struct ReadFailure: Error { var text: String }
