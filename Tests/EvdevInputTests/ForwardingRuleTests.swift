import CLibevdev
import Foundation
import GestureTraces
import InputInterception
import TestSupport
import Testing
import TouchInput

/// The motion-forwarding rule is stated twice, on purpose: in C
/// (`gestures_evdev_scan_frame`, which `gestures_evdev_take_frame` forwards
/// by, so that no Swift runs between the `read` and the `write`) and in
/// Swift (`InterceptedDevice.isMotion`, which the loop, the scripted devices
/// and the benchmark ask). These tests hold the two to the same answer on
/// every frame of every recording in `Recordings/`, and on frames made at
/// the rule's edges: a contact landing or lifting, a key, lost events, a
/// frame not finished yet.
@Suite("The C forwarding rule and the Swift one give the same answer")
struct ForwardingRuleTests {
    static let root = TestFiles.recordings

    /// Every trace in `Recordings/` (paths relative to it), expected outputs aside; an error when there are too few.
    static func recordings() throws -> [String] {
        try TestFiles.names(in: root, endingIn: ".jsonl", excluding: [".expected.jsonl"], recursive: true, minimum: 60)
    }

    /// The C rule's answer for `events`: whether the reader forwards the
    /// frame they start with, and where it ends (nil when no frame ends in them).
    static func cRule(_ events: [InputEvent]) -> (forwards: Bool, end: Int?) {
        let raw = events.map(input_event.init)
        var end = 0
        var motion: Int32 = 0
        let found = raw.withUnsafeBufferPointer { buffer in
            gestures_evdev_scan_frame(buffer.baseAddress, buffer.count, &end, &motion)
        }
        let isFrame = found == Int32(GESTURES_EVDEV_FRAME.rawValue)
        return (isFrame && motion != 0, found == Int32(GESTURES_EVDEV_PARTIAL.rawValue) ? nil : end)
    }

    /// Requires both rules to answer alike for `frame`, and to say so with `context`.
    static func requireSameAnswer(_ frame: [InputEvent], _ context: @autoclosure () -> String) {
        let c = cRule(frame)
        let swift = InterceptedDevice.isMotion(frame)
        #expect(c.forwards == swift, "\(context()): C says \(c.forwards), Swift \(swift): \(frame.map(Self.name))")
    }

    static func name(_ event: InputEvent) -> String { "\(event.type):\(event.code)=\(event.value)" }

    @Test("every frame of a recording gets the same answer from both rules", arguments: try recordings())
    func recordedFramesAgree(path: String) throws {
        let trace = try Trace.load(contentsOf: Self.root.appendingPathComponent(path))
        for (index, frame) in trace.frames.enumerated() {
            Self.requireSameAnswer(frame.events, "\(path), frame \(index)")
            // Read as the kernel queues it, with the next frame behind it: the C
            // rule stops at the frame's own SYN_REPORT.
            if frame.events.last?.isSynReport == true {
                let next = trace.frames.indices.contains(index + 1) ? trace.frames[index + 1].events : []
                let c = Self.cRule(frame.events + next)
                #expect(c.end == frame.events.count, "\(path), frame \(index): C ends it at \(String(describing: c.end))")
                #expect(c.forwards == InterceptedDevice.isMotion(frame.events), "\(path), frame \(index), queued")
            }
        }
    }

    @Test("the recordings hold frames each rule forwards and frames it does not")
    func recordingsCoverBothAnswers() throws {
        var answers: Set<Bool> = []
        for path in try Self.recordings() where path.hasPrefix("synthetic/") {
            for frame in try Trace.load(contentsOf: Self.root.appendingPathComponent(path)).frames {
                answers.insert(InterceptedDevice.isMotion(frame.events))
                if answers.count == 2 { return }
            }
        }
        Issue.record("the recordings gave only \(answers) for every frame")
    }

    /// The events that change a motion frame's answer wherever they stand in it.
    static let edges: [(String, InputEvent)] = [
        ("a contact landing", InputEvent(type: EV.ABS, code: ABS.MT_TRACKING_ID, value: 7, microseconds: 1_000)),
        ("a contact lifting", InputEvent(type: EV.ABS, code: ABS.MT_TRACKING_ID, value: -1, microseconds: 1_000)),
        ("a finger-count key", InputEvent(type: EV.KEY, code: BTN.TOOL_DOUBLETAP, value: 1, microseconds: 1_000)),
        ("a button", InputEvent(type: EV.KEY, code: BTN.LEFT, value: 0, microseconds: 1_000)),
        ("lost events", InputEvent(type: EV.SYN, code: SYN.DROPPED, value: 0, microseconds: 1_000)),
    ]

    static let report = InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 1_000)
    static let motion = [
        InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: 1, microseconds: 1_000),
        InputEvent(type: EV.ABS, code: ABS.MT_POSITION_X, value: 2_000, microseconds: 1_000),
        InputEvent(type: EV.ABS, code: ABS.MT_POSITION_Y, value: 1_500, microseconds: 1_000),
        InputEvent(type: EV.ABS, code: ABS.X, value: 2_000, microseconds: 1_000),
        InputEvent(type: EV.MSC, code: 0x05 /* MSC_TIMESTAMP */, value: 8_000, microseconds: 1_000),
    ]

    @Test("an edge event anywhere in a motion frame makes both rules refuse it", arguments: 0..<edges.count)
    func edgeEventsAgree(edge: Int) {
        let (what, event) = Self.edges[edge]
        #expect(Self.cRule(Self.motion + [Self.report]).forwards, "the motion frame itself is forwarded")
        for position in 0...Self.motion.count {
            var frame = Self.motion
            frame.insert(event, at: position)
            frame.append(Self.report)
            Self.requireSameAnswer(frame, "\(what) at \(position)")
            #expect(!InterceptedDevice.isMotion(frame), "\(what) at \(position) is forwarded")
        }
    }

    @Test("frames of nothing but synchronisation, and frames not finished, are forwarded by neither")
    func emptyAndPartialFramesAgree() {
        let mtReport = InputEvent(type: EV.SYN, code: SYN.MT_REPORT, value: 0, microseconds: 1_000)
        let frames: [(String, [InputEvent])] = [
            ("a lone SYN_REPORT", [Self.report]),
            ("SYN_MT_REPORT alone", [mtReport, Self.report]),
            ("motion without its SYN_REPORT", Self.motion),
            ("nothing", []),
        ]
        for (what, frame) in frames {
            Self.requireSameAnswer(frame, what)
            #expect(!InterceptedDevice.isMotion(frame), "\(what) is forwarded")
        }
        #expect(Self.cRule(Self.motion).end == nil, "C ends a frame that has no SYN_REPORT")
    }

    @Test("motion a protocol-A device or a mouse sends is forwarded by both")
    func otherMotionAgrees() {
        let mtReport = InputEvent(type: EV.SYN, code: SYN.MT_REPORT, value: 0, microseconds: 1_000)
        let frames: [(String, [InputEvent])] = [
            ("protocol A", [Self.motion[1], Self.motion[2], mtReport, Self.report]),
            ("a mouse", [InputEvent(type: EV.REL, code: REL.X, value: 3, microseconds: 1_000), Self.report]),
        ]
        for (what, frame) in frames {
            Self.requireSameAnswer(frame, what)
            #expect(InterceptedDevice.isMotion(frame), "\(what) is not forwarded")
        }
    }
}
