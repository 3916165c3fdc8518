import Foundation
import GestureRecognition
import GestureTraces
import Testing
import TouchInput

/// `GesturePipeline` is what both `GestureReplay` and the live reader run per
/// device; these check it event by event, the way a live device feeds it, on
/// the synthetic recordings (read with GestureTraces).
@Suite struct GesturePipelineTests {
    static let swipe = "synthetic/x1carbon.3-finger-swipe-left.jsonl"
    static let hold = "synthetic/rmi4.3-finger-hold.jsonl"

    /// `Recordings/` at the top of the repository.
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Recordings")

    static func load(_ path: String) throws -> Trace {
        try Trace.load(contentsOf: recordings.appendingPathComponent(path))
    }

    @Test func eventByEventEqualsTheReplay() throws {
        let trace = try Self.load(Self.swipe)
        let origin = trace.frames[0].events[0].microseconds
        var pipeline = try #require(GesturePipeline(device: trace.devices[0], originMicroseconds: origin))
        var events: [GestureEvent] = []
        for frame in trace.frames { for event in frame.events { events += pipeline.process(event) } }
        events += pipeline.finish()
        #expect(!events.isEmpty)
        #expect(events == GestureReplay().gestures(in: trace))
    }

    @Test func eventByEventIntoABufferEqualsTheReplay() throws {
        let trace = try Self.load(Self.swipe)
        let origin = trace.frames[0].events[0].microseconds
        var pipeline = try #require(GesturePipeline(device: trace.devices[0], originMicroseconds: origin))
        var events: [GestureEvent] = []
        for frame in trace.frames { for event in frame.events { pipeline.process(event, into: &events) } }
        events += pipeline.finish()
        #expect(events.contains { $0.type == .swipe && $0.phase == .update })
        #expect(events == GestureReplay().gestures(in: trace))
    }

    @Test func droppedEventsMidGestureCancelIt() throws {
        let trace = try Self.load(Self.swipe)
        let origin = trace.frames[0].events[0].microseconds
        var pipeline = try #require(GesturePipeline(device: trace.devices[0], originMicroseconds: origin))
        var events: [GestureEvent] = []
        let half = trace.frames.count / 2
        for frame in trace.frames.prefix(half) { for event in frame.events { events += pipeline.process(event) } }
        #expect(events.contains { $0.type == .swipe && $0.phase == .begin })
        // What the live reader feeds after SYN_DROPPED: the marker frame, then the resync (fingers lifted).
        let time = trace.frames[half].events[0].microseconds
        events += pipeline.process(InputEvent(type: EV.SYN, code: SYN.DROPPED, value: 0, microseconds: time))
        events += pipeline.process(InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time))
        // The third finger lands 40 ms after the first two, which may have
        // begun a 2-finger swipe that its landing cancelled: every swipe
        // ends cancelled, the last one by the lost events.
        let ends = events.filter { $0.type == .swipe && $0.phase == .end }
        #expect(!ends.isEmpty && ends.allSatisfy { $0.cancelled == true }, "\(ends)")
        #expect(ends.last?.fingers == 3)
    }

    @Test func timersFireThroughAdvanceAtTheirDueTime() throws {
        // Fingers resting still: the kernel sends only the touch-down frame, so
        // the hold must begin from the engine's timer, at the replay's time.
        let trace = try Self.load(Self.hold)
        let origin = trace.frames[0].events[0].microseconds
        var pipeline = try #require(GesturePipeline(device: trace.devices[0], originMicroseconds: origin))
        for event in trace.frames[0].events { _ = pipeline.process(event) }
        var fired: [GestureEvent] = []
        for _ in 0..<10 where fired.isEmpty {
            let due = try #require(pipeline.nextDeadlineMicroseconds)
            #expect(pipeline.advance(toMicroseconds: due - 1).isEmpty)
            fired = pipeline.advance(toMicroseconds: due)
        }
        let replayed = GestureReplay().gestures(in: trace)
        #expect(fired.count == 1 && fired.first == replayed.first && replayed.first?.type == .hold)
    }

    @Test func firedTimersLeaveTheClockAtTheLastOneSoLaterFramesStayInOrder() throws {
        // A live reader wakes for the hold timer and fires it; the frames it
        // reads next can be stamped before it woke and are still in order.
        let trace = try Self.load(Self.hold)
        let origin = trace.frames[0].events[0].microseconds
        var pipeline = try #require(GesturePipeline(device: trace.devices[0], originMicroseconds: origin))
        for event in trace.frames[0].events { _ = pipeline.process(event) }
        let due = try #require(pipeline.nextDeadlineMicroseconds)
        #expect(pipeline.fireTimers(dueByMicroseconds: due - 1).isEmpty)
        let wokeAt = due + 50_000
        let fired = pipeline.fireTimers(dueByMicroseconds: wokeAt)
        #expect(fired.count == 1 && fired.first == GestureReplay().gestures(in: trace).first)
        // The next frame, stamped between the timer and the wake-up.
        let stamped = due + 20_000
        for event in trace.frames[1].events {
            _ = pipeline.process(InputEvent(type: event.type, code: event.code, value: event.value, microseconds: stamped))
        }
        let engine = try #require(pipeline.engine)
        #expect(engine.diagnostics.isEmpty, "\(engine.diagnostics)")
    }

    @Test func framesCarryTheButtonsAndEachContactsPressure() throws {
        // The P50 reports ABS_MT_PRESSURE; the pad is pressed down with two fingers.
        let trace = try Self.load("synthetic/p50.nothing-2-finger-click.jsonl")
        var decoder = MultitouchDecoder(device: trace.devices[0])
        let frames = trace.frames.flatMap(\.events).compactMap { decoder.process($0) }
            .map { GesturePipeline.gestureFrame($0, origin: 0) }
        #expect(frames.contains { $0.isButtonDown && $0.contacts.count == 2 })
        #expect(frames.contains { !$0.isButtonDown && $0.contacts.count == 2 })
        let touching = frames.flatMap(\.contacts)
        #expect(!touching.isEmpty && touching.allSatisfy { ($0.pressure ?? 0) > 0 })
        // The Magic Trackpad has no pressure: its touch size stands in.
        let magic = try Self.load("synthetic/magic.1-finger-tap.jsonl")
        var sized = MultitouchDecoder(device: magic.devices[0])
        let contacts = magic.frames.flatMap(\.events).compactMap { sized.process($0) }
            .flatMap { GesturePipeline.gestureFrame($0, origin: 0).contacts }
        #expect(!contacts.isEmpty && contacts.allSatisfy { $0.pressure == 60 })
    }

    @Test func aMouseHasAPipelineWithAMouseEngineAndAKeyboardNone() throws {
        var mouse = DeviceDescription(name: "mouse")
        mouse.enable(EV.REL, REL.X)
        mouse.enable(EV.REL, REL.Y)
        mouse.enable(EV.KEY, BTN.LEFT)
        let pipeline = try #require(GesturePipeline(device: mouse, originMicroseconds: 0))
        #expect(pipeline.mouse != nil && pipeline.engine == nil)
        var keyboard = DeviceDescription(name: "keyboard")
        keyboard.enable(EV.KEY, 30)
        #expect(GesturePipeline(device: keyboard, originMicroseconds: 0) == nil)
    }
}
