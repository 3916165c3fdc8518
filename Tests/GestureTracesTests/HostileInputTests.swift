import Foundation
import GestureRecognition
import GestureTraces
import InputChecks
import StructuredDocuments
import Testing
import TouchInput

/// The readers' entry points on hostile input (issue 16): times at the ends
/// of Int64, masks longer than their codes, XML that is not UTF-8, files over
/// their size limit, and fields of a megabyte or full of control characters.
/// Each gives a value or one short sentence, never a trap.
@Suite struct HostileInputTests {
    static let screen: DeviceDescription = {
        var screen = DeviceDescription(name: "screen", id: .init(bus: 0x18), properties: [INPUT_PROP.DIRECT])
        screen.enable(EV.KEY, BTN.TOUCH)
        screen.enable(ABS.MT_SLOT, AbsInfo(minimum: 0, maximum: 9))
        screen.enable(ABS.MT_POSITION_X, AbsInfo(minimum: 0, maximum: 799, resolution: 4))
        screen.enable(ABS.MT_POSITION_Y, AbsInfo(minimum: 0, maximum: 479, resolution: 4))
        screen.enable(ABS.MT_TRACKING_ID, AbsInfo(minimum: 0, maximum: 65535))
        return screen
    }()

    /// A touch at `times`: down, moves, up.
    static func trace(times: [Int64]) -> Trace {
        var frames: [Trace.Frame] = []
        for (index, time) in times.enumerated() {
            typealias Event = (type: UInt16, code: UInt16, value: Int32)
            var events: [Event] = [(EV.ABS, ABS.MT_SLOT, 0)]
            if index == 0 { events += [(EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.KEY, BTN.TOUCH, 1)] as [Event] }
            if index == times.count - 1 {
                events += [(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.KEY, BTN.TOUCH, 0)] as [Event]
            } else {
                events += [(EV.ABS, ABS.MT_POSITION_X, 400 + Int32(index) * 30), (EV.ABS, ABS.MT_POSITION_Y, 240)] as [Event]
            }
            events.append((EV.SYN, SYN.REPORT, 0))
            frames.append(
                Trace.Frame(device: 0, events: events.map { InputEvent(type: $0.0, code: $0.1, value: $0.2, microseconds: time) }))
        }
        return Trace(devices: [screen], frames: frames)
    }

    // MARK: 1. Times at the ends of Int64

    static let edgeTimes: [[Int64]] = [
        [.max - 20, .max - 10, .max], [.min, .min + 10, .min + 20], [.max, 0, .min], [.min, .max, .min], [0, .min, .max],
    ]

    @Test("traces with times at the ends of Int64 replay, summarise and export in every format", arguments: edgeTimes)
    func tracesWithEdgeTimes(times: [Int64]) throws {
        let trace = Self.trace(times: times)
        _ = GestureReplay().gestures(in: trace)
        let summary = trace.summary()
        #expect(summary.durationMicroseconds == EventTime.microseconds(from: times[0], to: times[times.count - 1]))
        for format in TraceFormat.allCases {
            let data = try trace.encoded(as: format)
            // What was written is read back, or refused in one sentence.
            do {
                let again = try Trace.decode(data, format: format)
                if format != .json {
                    #expect(again.frames.flatMap(\.events).map(\.microseconds) == trace.frames.flatMap(\.events).map(\.microseconds))
                }
            } catch {
                #expect(!"\(error)".contains("\n"))
            }
        }
    }

    @Test(
        "evemu times reach both ends of Int64",
        arguments: [
            ("-9223372036854.775808", Int64.min), ("-9223372036854.775807", Int64.min + 1), ("9223372036854.775807", Int64.max),
            ("-0.000001", -1),
        ])
    func evemuTimes(text: String, microseconds: Int64) throws {
        let trace = try Trace.decode(Data("N: x\nI: 0018 0000 0000 0000\nE: \(text) 0000 0000 0000\n".utf8))
        #expect(trace.frames.first?.events.first?.microseconds == microseconds)
        // And are written back as they were read.
        let written = String(decoding: try trace.encoded(as: .evemu), as: UTF8.self)
        #expect(written.contains("E: \(text) 0000 0000 0000"))
    }

    @Test(
        "evemu times past the ends of Int64 are refused with the line",
        arguments: ["-9223372036854.775809", "9223372036854.775808", "99999999999999999999.0"])
    func evemuTimesPastTheEnds(text: String) {
        do {
            _ = try Trace.decode(Data("N: x\nI: 0018 0000 0000 0000\nE: \(text) 0000 0000 0000\n".utf8))
            Issue.record("accepted")
        } catch let error as TraceError {
            #expect(error.line == 3)
        } catch {
            Issue.record("\(error)")
        }
    }

    // MARK: 2. Bit masks longer than their codes

    @Test("a mask of more than 8,192 bytes is refused with its line", arguments: ["P:", "B: 00", "B: 01", "B: 03", "B: 1f"])
    func longMasks(prefix: String) {
        let text = "N: x\nI: 0018 0000 0000 0000\n# a comment\n\(prefix)" + String(repeating: " ff", count: 8_193) + "\n"
        do {
            _ = try Trace.decode(Data(text.utf8))
            Issue.record("accepted")
        } catch let error as TraceError {
            #expect(error.line == 4)
            #expect(error.description.contains("8192"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("a mask of exactly 8,192 bytes names every 16-bit code")
    func fullMask() throws {
        let text = "N: x\nI: 0018 0000 0000 0000\nB: 00 0b\nB: 01" + String(repeating: " ff", count: 8_192) + "\n"
        let trace = try Trace.decode(Data(text.utf8))
        #expect(trace.devices[0].codes[EV.KEY]?.count == 65_536)
    }

    // MARK: 4. XML that is not UTF-8

    @Test(
        "a log that is not UTF-8 is refused before the XML parser sees it",
        arguments: [
            [0x3C, 0x47, 0xFF, 0x2F, 0x3E],
            Array(#"<Gesture N"#.utf8) + [0xC3, 0x28] + Array(#"="a"/>"#.utf8),
            Array(#"<Gesture Name=""#.utf8) + [0xFE] + Array(#""><Point X="1" Y="2"/></Gesture>"#.utf8),
            [0x3C, 0xC0, 0x80, 0x2F, 0x3E],
            Array("<a>\n\n".utf8) + [0xED, 0xA0, 0x80] + Array("</a>".utf8),
            [0xFF, 0xFE, 0x3C, 0x00, 0x61, 0x00, 0x2F, 0x00, 0x3E, 0x00],
        ] as [[UInt8]])
    func xmlNotUTF8(bytes: [UInt8]) {
        do {
            _ = try DollarGestureLog(data: Data(bytes), source: "log.xml")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".hasPrefix("log.xml, line "))
            #expect("\(error)".contains("is not UTF-8"))
        }
        #expect(throws: (any Error).self) { try StrokeFile.load(data: Data(bytes), source: "log.xml") }
    }

    // NUL bytes at the start make libxml2 read UTF-16 or UCS-4 (`\0\0\0<` crashed it, found by
    // Tools/fuzz); XML allows no C0 control character but tab and line breaks anywhere.
    @Test(
        "a log with a control character is refused with its line before the XML parser sees it",
        arguments: [
            ([0x00, 0x00, 0x00, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x3C, 0x7D], 1),
            ([0x3C, 0x00, 0x00, 0x00, 0x61, 0x00, 0x00, 0x00, 0x3E, 0x00, 0x00, 0x00], 1),
            ([0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00, 0x6D, 0x00, 0x6C], 1),
            ([0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00, 0x6D, 0x00, 0x6C, 0x00], 1),
            ([0x00, 0x00, 0x3C, 0x00], 1),
            (Array("<Gesture Name=\"a\">\n<Point X=\"1\" Y=\"2\"/>\n".utf8) + [0x01] + Array("</Gesture>".utf8), 3),
            (Array("<Gesture Name=\"a\u{0B}b\"/>".utf8), 1),
            (Array("<Gesture Name=\"a\"/>\r\n\u{1B}".utf8), 2),
        ] as [([UInt8], Int)])
    func xmlControlCharacters(bytes: [UInt8], line: Int) {
        do {
            _ = try DollarGestureLog(data: Data(bytes), source: "log.xml")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".hasPrefix("log.xml, line \(line): the control character 0x"))
            #expect("\(error)".contains("is not allowed in XML"))
        }
        #expect(throws: (any Error).self) { try StrokeFile.load(data: Data(bytes), source: "log.xml") }
    }

    // Foundation's parser crashes on a processing instruction without data; `<?xm?>` at the
    // start passed for the XML declaration (found by Tools/fuzz).
    @Test(
        "a processing instruction is refused, at the start too, unless it is the XML declaration",
        arguments: [
            ("<?xm?>\n<Gesture Name=\"a\"/>", 1),
            ("\u{FEFF}<?XML?><Gesture Name=\"a\"/>", 1),
            ("  <?xml-stylesheet?>\n<Gesture Name=\"a\"/>", 1),
            ("<?xml?><Gesture Name=\"a\"/>", 1),
            ("<?x?>", 1),
            ("<?xml version=\"1.0\"?>\n<Gesture Name=\"a\">\n<?p?></Gesture>", 3),
        ] as [(String, Int)])
    func processingInstructions(text: String, line: Int) {
        do {
            _ = try DollarGestureLog(data: Data(text.utf8), source: "log.xml")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".hasPrefix("log.xml, line \(line): a processing instruction"))
        }
    }

    // Foundation's parser crashes on a notation or unparsed entity without a public identifier;
    // a log needs no document type, so none is read (entities, notations, external subsets).
    @Test(
        "a document type declaration is refused with its line",
        arguments: [
            (#"<!DOCTYPE G [<!NOTATION n SYSTEM "">]><G/>"#, 1),
            (#"<!DOCTYPE G [<!ENTITY a SYSTEM "" NDATA n>]><G/>"#, 1),
            ("<?xml version=\"1.0\"?>\n<!DOCTYPE G [\n<!ENTITY a \"&b;&b;\">]><Gesture Name=\"&a;\"/>", 2),
            (#"<!DOCTYPE Gesture SYSTEM "/dev/zero"><Gesture Name="a"/>"#, 1),
        ] as [(String, Int)])
    func documentTypes(text: String, line: Int) {
        do {
            _ = try DollarGestureLog(data: Data(text.utf8), source: "log.xml")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".hasPrefix("log.xml, line \(line): a document type declaration"))
        }
    }

    @Test(
        "the XML declaration at the start, after a byte order mark too, is read",
        arguments: [
            "<?xml version=\"1.0\"?>\n", "\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?>", "<?xml\tversion='1.0'?>\r\n",
        ])
    func xmlDeclaration(prefix: String) throws {
        let log = try DollarGestureLog(data: Data((prefix + "<Gesture Name=\"a1\"><Point X=\"1\" Y=\"2\" T=\"3\"/></Gesture>").utf8))
        #expect(log.points.count == 1)
    }

    @Test("tab, line feed and carriage return still separate a log's attributes")
    func xmlWhiteSpace() throws {
        let log = try DollarGestureLog(data: Data("<Gesture\tName=\"a1\"\r\n><Point\nX=\"1\"\tY=\"2\" T=\"3\"/></Gesture>\r\n".utf8))
        #expect(log.name == "a1")
        #expect(log.points.count == 1)
    }

    @Test(
        "XML that is not well formed is refused, even where Foundation's parser says it succeeded",
        arguments: [
            #"<Gesture Name="a"><Point X="1" Y="2"/><a b</Gesture>"#,
            #"<Gesture Name="a"><Point X="1" Y="2"/>"#,
            #"<Gesture Name="a"><Point X="1" Y="2"/></Other>"#,
            "",
            "<?xml version=\"1.0\"?>",
        ])
    func malformedXML(text: String) {
        #expect(throws: DollarGestureLog.ReadError.self) { try DollarGestureLog(data: Data(text.utf8), source: "log.xml") }
    }

    // MARK: 7. Files read whole before their size check

    @Test("a file over its limit is refused from its size, before it is read")
    func sizeFirst() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let huge = directory.appendingPathComponent("huge.json")
        _ = FileManager.default.createFile(atPath: huge.path, contents: Data("[".utf8))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 1 << 40)  // sparse: a terabyte of nothing
        try handle.close()
        #expect(throws: InputFile.ReadError(path: huge.path, problem: .tooLarge(bytes: 1 << 40, limit: 16 << 20))) {
            try InputFile.read(huge.path, maximumBytes: 16 << 20)
        }
        #expect(throws: (any Error).self) { try StrokeFile.load(contentsOf: huge) }
        #expect(throws: (any Error).self) { try DollarGestureLog(contentsOf: huge) }
        do {
            _ = try Trace.load(
                contentsOf: huge,
                limits: {
                    var l = TraceReader.Limits(); l.maximumFileBytes = 1 << 20; return l
                }())
        } catch let error as TraceError {
            #expect(error.kind == .fileTooLarge(bytes: 1 << 40, limit: 1 << 20))
        }
        // A device is refused before a byte is read (it could never end, or block).
        #expect(throws: InputFile.ReadError(path: "/dev/zero", problem: .notARegularFile(kind: "a character device"))) {
            try InputFile.read("/dev/zero", maximumBytes: 1_000)
        }
        #expect(throws: InputFile.ReadError(path: directory.path, problem: .directory)) {
            try InputFile.read(directory.path, maximumBytes: 10)
        }
        #expect(throws: InputFile.ReadError(path: directory.path + "/none", problem: .missing)) {
            try InputFile.read(directory.path + "/none", maximumBytes: 10)
        }
        #expect(
            InputFile.tooLargeMessage(bytes: 17 << 20, limit: 16 << 20)
                == "the file is 17825792 bytes, over the limit of 16777216 bytes (16 MiB)")
    }

    // MARK: Messages in our own words

    static let longField = String(repeating: "x", count: 1_000_000)
    static let controlField = "a\r\nb\u{0C}c\u{2028}d\u{2029}e\u{0B}f\u{1B}[31mg\u{85}h"

    /// Each reader's entry point, fed `field` where its message must name or quote it.
    static func readers(_ field: String) -> [(name: String, read: () throws -> Void)] {
        let json = String(decoding: try! JSONEncoder().encode(field), as: UTF8.self)
        let header = #"{"format":"gestures-trace","version":1,"devices":[{"name":"x","id":[1,2,3,4],"codes":{\#(json):[1]}}]}"#
        return [
            ("JSON trace header", { _ = try Trace.decode(Data((header + "\n").utf8)) }),
            (
                "JSON trace frame",
                {
                    _ = try Trace.decode(
                        Data(
                            (#"{"format":"gestures-trace","version":1,"devices":[{"name":"x","id":[1,2,3,4]}]}"#
                                + "\n{\"d\":0,\"t\":\(field)}\n").utf8))
                }
            ),
            (
                "libinput YAML",
                {
                    _ = try Trace.decode(
                        Data("version: 1\ndevices:\n- evdev:\n    name: x\n    id: [1, 2, 3, 4]\n    codes:\n      \(json): [1]\n".utf8))
                }
            ),
            ("libinput YAML version", { _ = try Trace.decode(Data("version: \(json)\ndevices: []\n".utf8)) }),
            ("evemu line", { _ = try Trace.decode(Data("N: x\nI: 0018 0000 0000 0000\nE: \(field) 0000 0000 0000\n".utf8)) }),
            ("evemu id", { _ = try Trace.decode(Data("N: x\nI: \(field) 0000 0000 0000\n".utf8)) }),
            ("$1 XML", { _ = try DollarGestureLog(data: Data("<Gesture Name=\"a\"><\(field)/></Gesture>".utf8), source: "log.xml") }),
            ("stroke file", { _ = try StrokeFile.load(data: Data(#"{"name": "a", "points": \#(json)}"#.utf8), source: "s.json") }),
            (
                "template library format",
                { _ = try TemplateLibrary(jsonData: Data(#"{"format": \#(json), "version": 1, "templates": []}"#.utf8)) }
            ),
            (
                "template library name",
                {
                    _ = try TemplateLibrary(
                        jsonData: Data(
                            #"{"format": "gestures-templates", "version": 1, "templates": [{"name": \#(json), "points": [[0, 0], [5, 5]]}]}"#
                                .utf8))
                }
            ),
            (
                "template library key",
                {
                    _ = try TemplateLibrary(
                        jsonData: Data(#"{"format": "gestures-templates", "version": 1, "templates": [{\#(json): 1}]}"#.utf8))
                }
            ),
            (
                "engine configuration",
                {
                    _ = try JSONText.decode(
                        GestureEngine.Configuration.self, from: Data(#"{"strokeRecognition": {"matcher": \#(json)}}"#.utf8))
                }
            ),
            (
                "engine configuration sequence",
                {
                    _ = try JSONText.decode(
                        GestureEngine.Configuration.self, from: Data(#"{"sequences": [{"name": "a", "directions": [\#(json)]}]}"#.utf8))
                }
            ),
            ("JSON syntax", { try JSONText.checkSyntax(Data("[\(field)]".utf8)) }),
            ("YAML document", { _ = try DocumentNode.parse(yaml: Data("a: 1\n\(json): 2\n\(json): 3\n".utf8)) }),
        ]
    }

    @Test(
        "every reader's message is one line of at most 300 characters",
        arguments: [longField, controlField], readers(longField).indices)
    func messagesAreShortAndOneLine(field: String, index: Int) {
        let (name, read) = Self.readers(field)[index]
        do {
            try read()
            Issue.record("\(name) accepted the field")
        } catch {
            let message = "\(error)"
            #expect(message.count <= 300, "\(name): \(message.count) characters: \(message.prefix(400))")
            #expect(!message.contains(where: { $0.isNewline }), "\(name): \(message.prefix(400))")
            #expect(
                !message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(name): \(message.prefix(400))")
        }
    }
}
