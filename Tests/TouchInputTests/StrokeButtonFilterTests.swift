import Testing
import TouchInput

@Suite struct StrokeButtonFilterTests {
    static func key(_ code: UInt16, _ value: Int32, at time: Int64) -> [InputEvent] {
        [
            InputEvent(type: EV.KEY, code: code, value: value, microseconds: time),
            InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time),
        ]
    }

    static func motion(_ dx: Int32, _ dy: Int32, at time: Int64) -> [InputEvent] {
        [
            InputEvent(type: EV.REL, code: REL.X, value: dx, microseconds: time),
            InputEvent(type: EV.REL, code: REL.Y, value: dy, microseconds: time),
            InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time),
        ]
    }

    /// A mouse with three buttons and a wheel.
    static let mouse: DeviceDescription = {
        var mouse = DeviceDescription(name: "mouse")
        for code in [REL.X, REL.Y, REL.WHEEL] { mouse.enable(EV.REL, code) }
        for code in [BTN.LEFT, BTN.RIGHT, BTN.MIDDLE] { mouse.enable(EV.KEY, code) }
        return mouse
    }()

    /// Frames with what the one decoder makes of each, as a mouse's pipeline gives them to the filter.
    struct Decoded {
        var decoder = MultitouchDecoder(device: StrokeButtonFilterTests.mouse)
        mutating func frame(_ events: [InputEvent]) -> TouchFrame {
            events.compactMap { decoder.process($0) }.last!
        }
    }

    /// Runs frames (each at its time) through a filter, firing its timer between them; returns what reached the clone.
    static func run(_ frames: [[InputEvent]], settings: StrokeButtonFilter.Settings = .init(), until end: Int64? = nil)
        -> (frames: [[InputEvent]], abandoned: Int)
    {
        var filter = StrokeButtonFilter(settings: settings)
        var decoded = Decoded()
        var out: [[InputEvent]] = []
        var abandoned = 0
        func take(_ output: StrokeButtonFilter.Output) {
            out += output.frames
            if output.abandonsStroke { abandoned += 1 }
        }
        for frame in frames {
            let time = frame.last!.microseconds
            if let due = filter.nextDeadlineMicroseconds, due < time { take(filter.advance(toMicroseconds: due)) }
            take(filter.process(frame, frame: decoded.frame(frame)))
        }
        if let end { take(filter.advance(toMicroseconds: end)) }
        return (out, abandoned)
    }

    static func keys(_ frames: [[InputEvent]], _ code: UInt16 = BTN.RIGHT) -> [Int32] {
        frames.flatMap { $0.filter { $0.type == EV.KEY && $0.code == code }.map(\.value) }
    }

    static func travel(_ frames: [[InputEvent]]) -> Int32 {
        frames.flatMap { $0.filter { $0.type == EV.REL && $0.code == REL.X }.map(\.value) }.reduce(0, +)
    }

    @Test func eachPressIsDecidedOnce() {
        var filter = StrokeButtonFilter(settings: .init())
        var decoded = Decoded()
        var decisions: [StrokeButtonFilter.Decision] = []
        var frames = [
            Self.key(BTN.RIGHT, 1, at: 0), Self.motion(3, 4, at: 10_000), Self.key(BTN.RIGHT, 0, at: 20_000),
            Self.key(BTN.RIGHT, 1, at: 100_000),
        ]
        for step in 1...5 { frames.append(Self.motion(6, 8, at: 100_000 + Int64(step) * 10_000)) }
        frames.append(Self.key(BTN.RIGHT, 0, at: 200_000))
        for frame in frames {
            if let decision = filter.process(frame, frame: decoded.frame(frame)).decision { decisions.append(decision) }
        }
        #expect(decisions == [.click(travelCounts: 5), .withheld(travelCounts: 20)])
    }

    @Test func aClickWithoutMotionReachesTheCloneAtTheReleaseInTwoFrames() {
        let (out, abandoned) = Self.run([Self.key(BTN.RIGHT, 1, at: 0), Self.key(BTN.RIGHT, 0, at: 80_000)])
        #expect(Self.keys(out) == [1, 0])
        #expect(out.count == 2 && out.allSatisfy { $0.count == 1 })
        #expect(abandoned == 0)
    }

    @Test func aShortWiggleIsStillAClick() {
        let frames = [
            Self.key(BTN.RIGHT, 1, at: 0), Self.motion(3, 4, at: 10_000), Self.motion(-3, -4, at: 20_000),
            Self.key(BTN.RIGHT, 0, at: 30_000),
        ]
        let (out, _) = Self.run(frames)
        #expect(Self.keys(out) == [1, 0])
        // The motion passed when it happened, the click came at the release.
        #expect(out.firstIndex { $0.contains { $0.code == BTN.RIGHT } }! > out.firstIndex { $0.contains { $0.type == EV.REL } }!)
    }

    @Test func aDrawnStrokeNeverReachesTheCloneButItsMotionDoes() {
        var frames = [Self.key(BTN.RIGHT, 1, at: 0)]
        for step in 1...20 { frames.append(Self.motion(5, 0, at: Int64(step) * 10_000)) }
        frames.append(Self.key(BTN.RIGHT, 0, at: 210_000))
        let (out, abandoned) = Self.run(frames, until: 2_000_000)
        #expect(Self.keys(out).isEmpty)
        #expect(Self.travel(out) == 100)
        #expect(abandoned == 0)
    }

    @Test func withheldMotionKeepsThePointerStillDuringAStroke() {
        var frames = [Self.key(BTN.RIGHT, 1, at: 0)]
        for step in 1...20 { frames.append(Self.motion(5, 0, at: Int64(step) * 10_000)) }
        frames += [Self.key(BTN.RIGHT, 0, at: 210_000), Self.motion(7, 0, at: 220_000)]
        let (out, _) = Self.run(frames, settings: .init(passesMotion: false))
        #expect(Self.keys(out).isEmpty)
        #expect(Self.travel(out) == 7)
    }

    @Test func aStillPressPassesAfterTheDelaySoDragsWork() {
        var frames = [Self.key(BTN.RIGHT, 1, at: 0)]
        for step in 1...20 { frames.append(Self.motion(5, 0, at: 300_000 + Int64(step) * 10_000)) }
        frames.append(Self.key(BTN.RIGHT, 0, at: 600_000))
        let (out, abandoned) = Self.run(frames)
        #expect(Self.keys(out) == [1, 0])
        #expect(abandoned == 1)
        // The press goes out before the drag's motion, the release after it.
        let press = out.firstIndex { $0.contains { $0.code == BTN.RIGHT && $0.value == 1 } }!
        let release = out.firstIndex { $0.contains { $0.code == BTN.RIGHT && $0.value == 0 } }!
        let moves = out.indices.filter { out[$0].contains { $0.type == EV.REL } }
        #expect(moves.allSatisfy { press < $0 && $0 < release } && Self.travel(out) == 100)
    }

    @Test func otherButtonsAndTheWheelPassInTheirFrames() {
        let wheel = [
            InputEvent(type: EV.REL, code: REL.WHEEL, value: -1, microseconds: 10_000),
            InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 10_000),
        ]
        let frames = [Self.key(BTN.LEFT, 1, at: 0), wheel, Self.key(BTN.LEFT, 0, at: 20_000)]
        let (out, _) = Self.run(frames)
        #expect(out == frames.map { $0.filter { !$0.isSynReport } })
    }

    @Test func theMiddleButtonCanDraw() {
        let (out, _) = Self.run(
            [
                Self.key(BTN.MIDDLE, 1, at: 0), Self.key(BTN.RIGHT, 1, at: 10_000), Self.key(BTN.RIGHT, 0, at: 20_000),
                Self.key(BTN.MIDDLE, 0, at: 30_000),
            ], settings: .init(button: BTN.MIDDLE))
        #expect(Self.keys(out, BTN.RIGHT) == [1, 0])
        #expect(Self.keys(out, BTN.MIDDLE) == [1, 0])
    }

    @Test func lostEventsDuringAStrokeKeepTheButtonFromTheClone() {
        var filter = StrokeButtonFilter(settings: .init())
        var decoded = Decoded()
        for frame in [Self.key(BTN.RIGHT, 1, at: 0), Self.motion(40, 0, at: 10_000)] {
            _ = filter.process(frame, frame: decoded.frame(frame))
        }
        let state = Self.key(BTN.RIGHT, 0, at: 20_000)
        let resync = filter.resynchronize(state, frame: decoded.frame(state))
        #expect(resync.frames.isEmpty)
        #expect(filter.phase == .idle)
    }
}
