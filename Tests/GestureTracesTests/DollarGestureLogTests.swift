import Foundation
import GestureRecognition
import TestSupport
import Testing

@testable import GestureTraces

@Suite("DollarGestureLog and StrokeFile")
struct DollarGestureLogTests {
    static let sample = """
        \u{FEFF}<?xml version="1.0" encoding="utf-8" standalone="yes"?>
        <Gesture Name="delete_mark07" Subject="4" Speed="slow" Number="7" NumPts="3" Millseconds="20">
          <Point X="10" Y="20" T="100" />
          <Point X="15" Y="28" T="110" />
          <Point X="30" Y="40" T="120" />
        </Gesture>
        """

    @Test("a log gives its name, gesture name, subject, speed, points and times")
    func parsesALog() throws {
        let log = try DollarGestureLog(data: Data(Self.sample.utf8))
        #expect(log.name == "delete_mark07")
        #expect(log.gestureName == "delete_mark")
        #expect(log.subject == "4" && log.speed == "slow")
        #expect(log.points == [Point(x: 10, y: 20), Point(x: 15, y: 28), Point(x: 30, y: 40)])
        #expect(log.times == [100, 110, 120])
    }

    static let malformedLogs: [(String, String)] = [
        ("<Gesture Name=\"a1\"><Point X=\"1\" Y=\"2\" /></Gesture", "not well-formed XML"),
        ("<Gesture Name=\"a1\"><Point X=\"nan\" Y=\"2\" /></Gesture>", "without finite X and Y"),
        ("<Gesture Name=\"a1\"><Point Y=\"2\" /></Gesture>", "without finite X and Y"),
        ("<Other/>", "no <Gesture Name=...> element"),
    ]

    @Test("bad logs give one clear error", arguments: malformedLogs)
    func badLogs(xml: String, expected: String) {
        do {
            _ = try DollarGestureLog(data: Data(xml.utf8), source: "x.xml")
            Issue.record("accepted: \(xml)")
        } catch {
            #expect("\(error)".contains(expected), "\(error)")
            #expect("\(error)".hasPrefix("x.xml"))
        }
    }

    @Test("stroke files are read as XML or JSON by their content")
    func strokeFiles() throws {
        let xml = try StrokeFile.load(data: Data(Self.sample.utf8), source: "s")
        #expect(xml == [StrokeFile(name: "delete_mark", points: [Point(x: 10, y: 20), Point(x: 15, y: 28), Point(x: 30, y: 40)])])
        let one = try StrokeFile.load(data: Data(#"{"name": "v", "points": [[0, 0], [1, 2]]}"#.utf8), source: "s")
        #expect(one == [StrokeFile(name: "v", points: [Point(x: 0, y: 0), Point(x: 1, y: 2)])])
        let list = try StrokeFile.load(data: Data(#"[{"points": [[0, 0], [1, 2]]}, {"name": "w", "points": []}]"#.utf8), source: "s")
        #expect(list.count == 2 && list[0].name == nil && list[1].points.isEmpty)
        let again = try StrokeFile.load(data: one[0].jsonData(), source: "s")
        #expect(again == one)
    }

    @Test(
        "bad stroke files are explained",
        arguments: [
            ("hello", "neither an XML gesture log nor a JSON stroke file"),
            (#"{"points": [[0]]}"#, "points[0] is not a pair of finite numbers"),
            (#"{"name": "a"}"#, "points: is required"),
        ])
    func badStrokeFiles(text: String, expected: String) {
        #expect(throws: (any Error).self) { try StrokeFile.load(data: Data(text.utf8), source: "s") }
        do { _ = try StrokeFile.load(data: Data(text.utf8), source: "s") } catch {
            #expect("\(error)".contains(expected), "\(error)")
        }
    }

    @Test("every log of the $1 tuning subset imports", .enabled(if: SharedData.dollarLogs != nil, "needs ../shared/data/dollar1"))
    func everyRealLogImports() throws {
        let logs = try DollarGestureLog.logs(under: SharedData.dollarLogs!)
        #expect(logs.count == 2400)
        #expect(Set(logs.map(\.log.gestureName)).count == 16)
        #expect(logs.allSatisfy { $0.log.points.count >= 10 })
    }
}
