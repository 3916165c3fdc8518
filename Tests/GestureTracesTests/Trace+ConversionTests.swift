import Foundation
import GestureTraces
import TestSupport
import Testing
import TouchInput

/// What `convert` writes reads back as the same trace, in every format, for
/// every recording of the repository and for generated edge cases; what a
/// format cannot hold is refused in one sentence rather than written wrong.
@Suite("converting a trace: every file written reads back to the same trace")
struct TraceConversionTests {
    /// Every recording in Recordings/ (devices and synthetic).
    static let recordings: [String] = {
        let root = SharedData.repositoryRoot.appendingPathComponent("Recordings")
        return ["devices", "synthetic"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".expected.jsonl") }.sorted().map { "\(folder)/\($0)" }
        }
    }()

    static func load(_ name: String) throws -> Trace {
        try Trace.load(contentsOf: SharedData.repositoryRoot.appendingPathComponent("Recordings").appendingPathComponent(name))
    }

    /// The trace converted to `format` and read back; nil when the format refused it with a sentence.
    static func roundTrip(_ trace: Trace, _ format: TraceFormat) throws -> Trace? {
        let data: Data
        do { data = try trace.converted(to: format) } catch {
            guard case .cannotExport = error.kind else { throw error }
            return nil
        }
        return try Trace.decode(data, format: format)
    }

    @Test("every recording converts to every format and reads back the same", arguments: recordings)
    func recordingsRoundTrip(name: String) throws {
        let trace = try Self.load(name)
        for format in TraceFormat.allCases {
            let back = try Self.roundTrip(trace, format)
            #expect(back == trace.withoutEmptyFrames, "\(name) as \(format)")
        }
    }

    static let device: DeviceDescription = {
        var device = DeviceDescription(name: "Edge Pad")
        device.codes = [EV.SYN: [SYN.REPORT, SYN.CONFIG, SYN.MT_REPORT, SYN.DROPPED], EV.ABS: [ABS.X, ABS.Y]]
        device.absInfo = [
            ABS.X: AbsInfo(minimum: 0, maximum: 1000, fuzz: 0, flat: 0, resolution: 10),
            ABS.Y: AbsInfo(minimum: 0, maximum: 500, fuzz: 0, flat: 0, resolution: 10),
        ]
        return device
    }()

    static func event(_ code: UInt16, _ value: Int32, at microseconds: Int64) -> InputEvent {
        InputEvent(type: EV.ABS, code: code, value: value, microseconds: microseconds)
    }

    static func report(at microseconds: Int64) -> InputEvent {
        InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: microseconds)
    }

    /// Edge cases, each a trace of one device.
    static let edgeCases: [(String, Trace)] = {
        let frame = Trace.Frame(device: 0, events: [event(ABS.X, 10, at: 1_000), report(at: 1_000)])
        let empty = Trace.Frame(device: 0, events: [])
        var cases: [(String, Trace)] = [
            ("an empty frame alone", Trace(devices: [device], frames: [empty])),
            ("empty frames around one", Trace(devices: [device], frames: [empty, frame, empty, empty])),
            ("one event", Trace(devices: [device], frames: [Trace.Frame(device: 0, events: [event(ABS.X, 1, at: 0)])])),
            ("no frames", Trace(devices: [device], frames: [])),
            (
                "times and values at the ends of their ranges",
                Trace(
                    devices: [device],
                    frames: [Int64.min, -1, 0, 999_999, Int64.max].map {
                        Trace.Frame(device: 0, events: [event(ABS.X, .min, at: $0), event(ABS.Y, .max, at: $0), report(at: $0)])
                    })
            ),
            (
                "the most events a frame may hold",
                Trace(
                    devices: [device],
                    frames: [
                        Trace.Frame(device: 0, events: (0..<65_535).map { event(ABS.X, Int32($0), at: 5) } + [report(at: 5)])
                    ])
            ),
        ]
        var named = device
        named.name = "\u{85}line\u{2028}break\u{2029} \u{7F}\u{9B}[2J \u{FEFF}\u{FFFE}\u{FFFF} \"quoted\" \\ #hash: colon"
        cases.append(("a name YAML reads otherwise", Trace(devices: [named], frames: [frame])))
        named.name = String(repeating: "Long name.", count: 10_000)
        cases.append(("a 100,000-character name", Trace(devices: [named], frames: [frame])))
        named.name = " spaced \t"
        cases.append(("a name with blanks at its ends", Trace(devices: [named], frames: [frame])))
        return cases
    }()

    @Test("generated edge cases convert and read back the same in every format", arguments: edgeCases)
    func edgeCasesRoundTrip(label: String, trace: Trace) throws {
        for format in TraceFormat.allCases {
            do {
                let data = try trace.converted(to: format)
                #expect(try Trace.decode(data, format: format) == trace.withoutEmptyFrames, "\(label) as \(format)")
            } catch {
                // Only evemu may refuse, and only what it cannot hold: a name with blanks at its ends.
                #expect(format == .evemu && label == "a name with blanks at its ends", "\(label) as \(format): \(error)")
                #expect("\(error)".contains("cannot hold device 0's description"))
            }
        }
    }

    @Test("64 devices, the most a trace may hold, convert to libinput record and back; evemu says it holds one")
    func manyDevices() throws {
        let devices = (0..<64).map { index -> DeviceDescription in
            var device = Self.device
            device.name = "Pad \(index)"
            return device
        }
        let frames = (0..<64).map { Trace.Frame(device: $0, events: [Self.event(ABS.X, 1, at: Int64($0)), Self.report(at: Int64($0))]) }
        let trace = Trace(devices: devices, frames: frames)
        #expect(try Self.roundTrip(trace, .json) == trace)
        #expect(try Self.roundTrip(trace, .libinput) == trace)
        #expect(throws: TraceError.self) { try trace.converted(to: .evemu) }
    }

    @Test("what a format cannot hold is refused with the frame it concerns")
    func refusals() throws {
        let unended = Trace(
            devices: [Self.device],
            frames: [
                Trace.Frame(device: 0, events: [Self.event(ABS.X, 1, at: 0)]),
                Trace.Frame(device: 0, events: [Self.event(ABS.X, 2, at: 5), Self.report(at: 5)]),
            ])
        #expect(try Self.roundTrip(unended, .libinput) == unended)
        let error = #expect(throws: TraceError.self) { try unended.converted(to: .evemu) }
        #expect(error?.description.contains("frame 0 ends without one") == true, "\(String(describing: error))")
        let twoInOne = Trace(
            devices: [Self.device],
            frames: [
                Trace.Frame(
                    device: 0, events: [Self.event(ABS.X, 1, at: 0), Self.report(at: 0), Self.event(ABS.X, 2, at: 5), Self.report(at: 5)])
            ])
        #expect(try Self.roundTrip(twoInOne, .json) == twoInOne)
        let yaml = #expect(throws: TraceError.self) { try twoInOne.converted(to: .libinput) }
        #expect(yaml?.description.contains("frame 0 holds one before its end") == true, "\(String(describing: yaml))")
    }
}
