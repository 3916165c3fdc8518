import Foundation
import GestureRecognition
import GestureTraces
import TestSupport
import Testing
import TouchInput

@testable import GesturePictures

@Suite("TracePicture")
struct TracePictureTests {
    /// The contacts and gestures the picture should show, worked out apart from it.
    static func expectedParts(of trace: Trace) throws -> (contacts: Set<Int>, gestures: [GestureEvent]) {
        let device = try TracePicture.touchDevice(in: trace, requested: nil)
        let frames = TracePicture.touchFrames(in: trace, device: device)
        let gestures = GestureReplay().deviceGestures(in: trace, including: { i, _ in i == device }).map(\.value)
        return (Set(frames.flatMap { $0.contacts.map(\.id) }), gestures.filter(\.isCompletion))
    }

    /// The synthetic recordings of touch surfaces; a mouse's are drawn from its strokes.
    static func touchTraces() throws -> [String] {
        try TestFiles.required(
            try Fixtures.syntheticTraces().filter { !$0.hasPrefix("mouse.") }, "touch recordings in Recordings/synthetic")
    }

    /// The synthetic recordings of mice.
    static func mouseTraces() throws -> [String] {
        try TestFiles.required(try Fixtures.syntheticTraces().filter { $0.hasPrefix("mouse.") }, "mouse recordings in Recordings/synthetic")
    }

    @Test(
        "a mouse's recording draws one path per press of its stroke button and one label per gesture, in counts",
        arguments: try mouseTraces())
    func mouseRecordingIsDrawn(_ name: String) throws {
        let trace = try Trace.load(contentsOf: Fixtures.synthetic(name))
        let picture = try TracePicture(trace: trace, title: name)
        let svg = picture.svg
        Fixtures.keep(svg, as: "trace." + name)
        let root = try SVGInspector.parse(svg)
        let presses = Set(picture.frames.flatMap { $0.contacts.map(\.id) })
        #expect(root.all("path", class: "contact-path").count == presses.count)
        let gestures = GestureReplay().deviceGestures(in: trace).map(\.value).filter(\.isCompletion)
        let labels = root.all("text", class: "gesture-label")
        #expect(labels.count == gestures.count)
        for label in labels { #expect(label.text.contains(" · mouse · "), "\(label.text)") }
        #expect(root.allText.contains("counts"))
    }

    @Test(
        "every synthetic recording draws one path per contact and one label per gesture",
        arguments: try touchTraces())
    func syntheticRecordingHasItsParts(_ name: String) throws {
        let trace = try Trace.load(contentsOf: Fixtures.synthetic(name))
        let svg = try TracePicture(trace: trace, title: name).svg
        Fixtures.keep(svg, as: "trace." + name)
        let root = try SVGInspector.parse(svg)
        let expected = try Self.expectedParts(of: trace)

        #expect(root.name == "svg")
        #expect(root.title == name)
        let paths = root.all("path", class: "contact-path")
        #expect(paths.count == expected.contacts.count)
        #expect(
            Set(paths.compactMap { $0.attributes["stroke"] }).count == Set(expected.contacts.map { $0 % Palette.contacts.count }).count,
            "each contact in its own colour")
        let labels = root.all("text", class: "gesture-label")
        #expect(labels.count == expected.gestures.count)
        for (label, gesture) in zip(labels, expected.gestures) {
            #expect(label.text.hasPrefix(gesture.type.rawValue), "label '\(label.text)' for \(gesture)")
            #expect(label.text.contains("\(gesture.fingers) finger"))
            if gesture.cancelled == true { #expect(label.text.contains("cancelled")) }
            if let template = gesture.template { #expect(label.text.contains("template \(template)")) }
        }
        for group in root.all("g", class: "gesture") + root.all("g", class: "contact") {
            #expect(group.title?.isEmpty == false, "every gesture and contact has a title")
        }
    }

    @Test(
        "every shared evemu recording draws one path per contact and one label per gesture",
        .enabled(if: !Fixtures.sharedRecordings.isEmpty, "needs ../shared/data/recordings"),
        arguments: Fixtures.sharedRecordings)
    func sharedRecordingHasItsParts(_ url: URL) throws {
        let trace = try Trace.load(contentsOf: url)
        let svg = try TracePicture(trace: trace, title: url.lastPathComponent).svg
        Fixtures.keep(svg, as: "shared." + url.lastPathComponent)
        let root = try SVGInspector.parse(svg)
        let expected = try Self.expectedParts(of: trace)
        #expect(root.all("path", class: "contact-path").count == expected.contacts.count)
        #expect(root.all("text", class: "gesture-label").count == expected.gestures.count)
        if trace.devices[try TracePicture.touchDevice(in: trace, requested: nil)].isSemiMT {
            #expect(root.allText.contains("positions approximate"))
        }
    }

    @Test func tapMarksEveryTouchDownAndLiftOff() throws {
        let trace = try Trace.load(contentsOf: Fixtures.synthetic("x1carbon.3-finger-tap.jsonl"))
        let root = try SVGInspector.parse(try TracePicture(trace: trace).svg)
        let contacts = try Self.expectedParts(of: trace).contacts.count
        #expect(contacts >= 2)
        #expect(root.all("circle", class: "touch-down").count == contacts)
        #expect(root.all("rect", class: "lift-off").count == contacts)
    }

    @Test func restingThumbIsDrawnAsAPalm() throws {
        let trace = try Trace.load(contentsOf: Fixtures.synthetic("rmi4.3-finger-swipe-up-with-resting-thumb.jsonl"))
        let root = try SVGInspector.parse(try TracePicture(trace: trace).svg)
        let dashed = root.all("path", class: "contact-path").filter { $0.attributes["stroke-dasharray"] != nil }
        #expect(dashed.count == 1)
        let palmGroups = root.all("g", class: "contact").filter { $0.title?.contains("palm") == true }
        #expect(palmGroups.count == 1)
        #expect(root.allText.contains("1 palm"))
        // The swipe is of the three fingers, not four.
        #expect(root.all("text", class: "gesture-label").contains { $0.text.hasPrefix("swipe · 3 fingers") })
    }

    @Test func discardedJumpIsMarkedWhereTheContactStayed() throws {
        let pad = try RecordedDevices.x1Carbon
        let x0 = pad.absInfo[ABS.MT_POSITION_X]!.minimum, y0 = pad.absInfo[ABS.MT_POSITION_Y]!.minimum
        let resolution = pad.absInfo[ABS.MT_POSITION_X]!.resolution
        var events: [InputEvent] = []
        var time: Int64 = 1_000_000
        func frame(_ items: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in items + [(EV.SYN, SYN.REPORT, 0)] {
                events.append(InputEvent(type: type, code: code, value: value, microseconds: time))
            }
            time += 12_000
        }
        frame([
            (EV.ABS, ABS.MT_SLOT, 0), (EV.ABS, ABS.MT_TRACKING_ID, 1), (EV.ABS, ABS.MT_POSITION_X, x0 + 10 * resolution),
            (EV.ABS, ABS.MT_POSITION_Y, y0 + 600), (EV.KEY, BTN.TOUCH, 1), (EV.KEY, BTN.TOOL_FINGER, 1),
        ])
        frame([(EV.ABS, ABS.MT_POSITION_X, x0 + 11 * resolution)])
        frame([(EV.ABS, ABS.MT_POSITION_X, x0 + 60 * resolution)])  // 49 mm in 12 ms: a jump
        frame([(EV.ABS, ABS.MT_POSITION_X, x0 + 12 * resolution)])
        frame([(EV.ABS, ABS.MT_TRACKING_ID, -1), (EV.KEY, BTN.TOUCH, 0), (EV.KEY, BTN.TOOL_FINGER, 0)])
        let trace = Trace(device: pad, events: events)
        #expect(TracePicture.touchFrames(in: trace, device: 0).map(\.discardedJumps).reduce(0, +) == 1)

        let root = try SVGInspector.parse(try TracePicture(trace: trace).svg)
        let jumps = root.all(class: "jump")
        #expect(jumps.count == 1)
        #expect(jumps.first?.title?.contains("discarded") == true)
        #expect(root.allText.contains("1 jump discarded"))
    }

    @Test func surfaceIsDrawnToScaleInMillimetres() throws {
        let trace = try Trace.load(contentsOf: Fixtures.synthetic("x1carbon.3-finger-swipe-left.jsonl"))
        let root = try SVGInspector.parse(try TracePicture(trace: trace).svg)
        let size = try #require(trace.devices[0].sizeMillimeters)
        let outline = try #require(root.all("g", class: "surface").first?.all("rect").first)
        let width = try #require(outline.number("width")), height = try #require(outline.number("height"))
        #expect(abs(width / height - size.width / size.height) < 0.01)
        #expect(root.all("g", class: "surface").first?.title?.contains("\(SVG.decimal(size.width, digits: 1)) by") == true)
    }

    @Test func windowKeepsOnlyWhatHappensInsideIt() throws {
        let trace = try Trace.load(contentsOf: Fixtures.synthetic("rmi4.3-finger-sequence-back-and-forth.jsonl"))
        let all = try SVGInspector.parse(try TracePicture(trace: trace).svg)
        let swipes = all.all("text", class: "gesture-label")
        #expect(swipes.count >= 2)
        let whole = try SVGInspector.parse(try TracePicture(trace: trace, window: .zero ... .seconds(3600)).svg)
        #expect(whole.all("text", class: "gesture-label").count == swipes.count)

        let completions = GestureReplay().gestures(in: trace).filter(\.isCompletion)
        let firstEnd = completions[0].time
        let early = try SVGInspector.parse(try TracePicture(trace: trace, window: .zero...firstEnd).svg)
        let earlyLabels = early.all("text", class: "gesture-label")
        #expect(earlyLabels.count >= 1 && earlyLabels.count < swipes.count)

        let after = try SVGInspector.parse(try TracePicture(trace: trace, window: .seconds(3599) ... .seconds(3600)).svg)
        #expect(after.all("text", class: "gesture-label").isEmpty)
        #expect(after.all("path", class: "contact-path").isEmpty)
        #expect(after.allText.contains("no gestures recognised"))
    }

    @Test func traceWithNothingToDrawIsAnError() throws {
        // A keyboard: no touch surface, no pointer.
        let keyboard = DeviceDescription(name: "AT Translated Set 2 keyboard", codes: [EV.KEY: [30, 31, 32]])
        let trace = Trace(
            device: keyboard,
            events: [
                InputEvent(type: EV.KEY, code: 30, value: 1, microseconds: 0),
                InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 0),
            ])
        #expect(throws: PictureError.noTouchDevice) { try TracePicture(trace: trace) }
        #expect(throws: PictureError.notATouchSurface(name: keyboard.name)) { try TracePicture(trace: trace, device: 0) }
        #expect(throws: PictureError.noSuchDevice(index: 3, count: 1)) { try TracePicture(trace: trace, device: 3) }
        #expect(PictureError.noSuchDevice(index: 3, count: 1).description.contains("from 0 to 0"))
    }

    @Test("a mouse recording's strokes are drawn as a touch surface's contacts, in counts, with the strokes recognised")
    func mouseStrokesAreDrawn() throws {
        let url = RecordedDevices.directory.deletingLastPathComponent().appendingPathComponent("synthetic/mouse.stroke-circle.jsonl")
        let trace = try Trace.load(contentsOf: url)
        let picture = try TracePicture(trace: trace)
        #expect(picture.device.kind == .mouse && picture.unit == "counts")
        // One press of the stroke button, one contact, every position inside the drawn area.
        let contacts = picture.frames.flatMap(\.contacts)
        #expect(Set(contacts.map(\.id)) == [0])
        #expect(contacts.allSatisfy { $0.position.x >= 5 && $0.position.y >= 5 })
        let svg = try SVGInspector.parse(picture.svg)
        #expect(svg.all("path", class: "contact-path").count == 1)
        #expect(svg.allText.contains("counts") && !svg.allText.contains(" mm"), "\(svg.allText)")
        #expect(svg.all("text", class: "gesture-label").first?.text.hasPrefix("stroke · mouse · template circle") == true)
        // Another button draws nothing: the strokes are the stroke button's.
        let middle = TracePicture.strokeFrames(in: trace, device: 0, button: BTN.MIDDLE)
        #expect(!middle.isEmpty && middle.allSatisfy { $0.contacts.isEmpty })
    }
}
