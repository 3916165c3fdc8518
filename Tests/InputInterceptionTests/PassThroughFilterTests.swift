import Foundation
import GestureEvaluation
import GestureRecognition
import GestureTraces
import InputInterception
import TestSupport
import Testing
import TouchInput

@Suite struct PassThroughFilterTests {
    let pad: DeviceDescription
    init() throws { pad = try RecordedDevices.rmi4 }

    typealias Policy = PassThroughFilter.Policy
    typealias Claim = PassThroughFilter.Claim

    static let swipes = Policy(claims: [Claim(gesture: .swipe, fingers: 3), Claim(gesture: .swipe, fingers: 4)])
    /// A claim on 2 fingers: every 2-finger touch is held while the engine decides.
    static let pinch2 = Policy(claims: [Claim(gesture: .pinch, fingers: 2)])

    /// Whether every contact the clone had down before its latest cancel
    /// became a palm in that cancel, and the next frame lifted them all.
    func endsWithACancel(_ run: LoopRecording) -> Bool {
        guard let index = run.written.lastIndex(where: { LoopRecording.cancels($0.events) }), index + 1 < run.written.count else {
            return false
        }
        var before = EvdevState()
        for frame in run.written[..<index] { before.apply(frame.events) }
        let palms = Set(
            run.written[index].events.enumerated().compactMap { offset, event -> Int32? in
                guard event.code == ABS.MT_TOOL_TYPE, offset > 0 else { return nil }
                return run.written[index].events[offset - 1].value
            })
        var after = before
        after.apply(run.written[index].events)
        after.apply(run.written[index + 1].events)
        return palms == Set(before.activeSlots) && !after.isTouching
    }

    /// A swipe right of `count` fingers landing `gap` ms apart, resting until the last lands.
    func swipe(_ count: Int, gap: Int64 = 0, dx: Double = 1, moveFrom: Int64? = nil, jitterFirst: Bool = false) -> TouchScript {
        let start = moveFrom ?? gap * Int64(count - 1) + 20
        var fingers = (0..<count).map { index in
            TouchScript.Finger.moving(
                20 + 10 * Double(index), 25, dx: dx, dy: 0, down: gap * Int64(index), up: start + 250, moveFrom: start)
        }
        if jitterFirst {
            fingers[0] = TouchScript.Finger(down: 0, up: start + 250) { t in
                t < start ? Point(x: 20 + (t >= 10 ? 0.4 : 0), y: 25) : Point(x: 20.4 + dx * Double(t - start) / 10, y: 25)
            }
        }
        return TouchScript(device: pad, fingers: fingers)
    }

    func withoutSyn(_ frames: [[InputEvent]]) -> [[InputEvent]] { frames.map { $0.filter { !$0.isSynReport } } }

    // MARK: Nothing claimed

    static let everyday: [String] = ["1-finger motion", "2-finger scroll", "3-finger swipe", "1-finger tap", "2-finger tap", "click"]

    func everydayScript(_ name: String) -> TouchScript {
        switch name {
        case "1-finger motion": return TouchScript(device: pad, fingers: [.moving(30, 20, dx: 0.7, dy: 0.3, down: 0, up: 300)])
        case "2-finger scroll":
            return TouchScript(
                device: pad,
                fingers: [
                    .moving(30, 10, dx: 0, dy: 1, down: 0, up: 300),
                    .moving(42, 10, dx: 0, dy: 1, down: 0, up: 300),
                ])
        case "3-finger swipe": return swipe(3)
        case "1-finger tap": return TouchScript(device: pad, fingers: [.still(40, 30, down: 0, up: 60)])
        case "2-finger tap": return TouchScript(device: pad, fingers: [.still(40, 30, down: 0, up: 60), .still(52, 30, down: 10, up: 70)])
        default: return TouchScript(device: pad, fingers: [.still(40, 30, down: 0, up: 200)], clicks: [30...120])
        }
    }

    @Test(arguments: everyday)
    func withNothingClaimedEveryFrameGoesOutVerbatimAtOnce(_ name: String) {
        let frames = everydayScript(name).frames()
        let run = LoopRecording.run(frames, device: pad, policy: Policy())
        let expected = withoutSyn(frames).enumerated().filter { !$0.element.isEmpty }
        #expect(run.written.map(\.events) == expected.map(\.element))
        #expect(run.written.map(\.time) == expected.map { frames[$0.offset].last!.microseconds })
        #expect(run.modes == [.passing])
    }

    @Test(arguments: everyday.filter { $0 != "3-finger swipe" })
    func unclaimedInputReachesTheCloneStateByState(_ name: String) {
        let frames = everydayScript(name).frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes)
        #expect(run.cloneStates == LoopRecording.states(frames))
        #expect(run.cloneGestures(device: pad).map(\.outline) == run.gestures.map(\.outline))
    }

    // MARK: Claimed swipes

    @Test(arguments: [3, 4, 5])
    func aClaimedSwipeWhoseFingersLandTogetherNeverReachesTheClone(fingers: Int) {
        let policy = Policy(claims: [Claim(gesture: .swipe, fingers: fingers)])
        let run = LoopRecording.run(swipe(fingers).frames(), device: pad, policy: policy)
        #expect(run.gestures.contains { $0.type == .swipe && $0.phase == .begin && $0.fingers == fingers })
        #expect(run.written.isEmpty, "\(run.written.count) frames reached the clone")
        #expect(run.modes == [.passing, .holding, .claimed, .passing])
    }

    /// Fingers landing apart: the first one reaches the clone (one finger
    /// passes at once), stays there still, and lifts after the tap timeout.
    /// Fingers of a claimed swipe landing apart: those below the claimed
    /// count reach the clone at once (a touchpad's fingers below a claimed
    /// count always pass); when the claimed count lands they end as palms,
    /// which libinput cancels (no tap, no hold, no scroll), and nothing
    /// more of the touch reaches the clone.
    @Test(arguments: [3, 4, 5], [20, 40, 60] as [Int64])
    func aStaggeredClaimedSwipeCancelsTheContactsTheCloneSaw(fingers: Int, gap: Int64) {
        let policy = Policy(claims: [Claim(gesture: .swipe, fingers: fingers)])
        let frames = swipe(fingers, gap: gap).frames()
        let run = LoopRecording.run(frames, device: pad, policy: policy)
        #expect(run.mostCloneContacts == fingers - 1)
        #expect(run.cancelCount == 1 && endsWithACancel(run), "\(run.written.map(\.events))")
        let landed = frames.first { $0.contains { $0.code == ABS.MT_TRACKING_ID && $0.value == 100 + Int32(fingers - 1) } }!
        let cancel = run.written.first { LoopRecording.cancels($0.events) }!
        #expect(cancel.time == landed.last!.microseconds, "cancelled when the claimed count landed")
        #expect(!run.modes.contains(.settling))
        let clone = run.cloneGestures(device: pad)
        #expect(!clone.contains { $0.type == .tap || $0.type == .swipe }, "\(clone.map(\.outline))")
    }

    /// Each change of mode says why, from the engine's count and decision.
    @Test func everyHandOverSaysWhy() {
        let claimed = LoopRecording.run(swipe(3, gap: 20).frames(), device: pad, policy: Self.swipes)
        #expect(claimed.reasons == [.landedInClaimedCount(fingers: 3), .claimed(.swipe, fingers: 3), .claimEnded])
        let scroll = LoopRecording.run(everydayScript("2-finger scroll").frames(), device: pad, policy: Self.pinch2)
        #expect(scroll.reasons.first == .landedInClaimedCount(fingers: 2))
        #expect(
            scroll.reasons.count == 2
                && scroll.reasons.last.map { [.ignored(.scrolling), .unclaimed(.swipe, fingers: 2)].contains($0) } == true,
            "\(scroll.reasons)")
        #expect(PassThroughFilter.Reason.claimed(.swipe, fingers: 3).description == "claimed 3-finger swipe")
    }

    @Test func aFirstFingerThatJitteredBeforeTheOthersLandedPassesAndIsCancelled() {
        let run = LoopRecording.run(swipe(3, gap: 30, jitterFirst: true).frames(), device: pad, policy: Self.swipes)
        #expect(run.mostCloneContacts == 2)
        #expect(run.written.contains { $0.events.contains { $0.code == ABS.MT_POSITION_X } && !LoopRecording.cancels($0.events) })
        #expect(endsWithACancel(run))
        #expect(!run.cloneGestures(device: pad).contains { $0.type == .tap || $0.type == .swipe })
    }

    @Test func aQuickStaggeredClaimedSwipeIsCancelledAtOnceAndNeverTaps() {
        // Fingers 30 ms apart, a 90 ms swipe: everything lifts 180 ms after the first landed.
        let fingers = (0..<3).map {
            TouchScript.Finger.moving(20 + 10 * Double($0), 25, dx: 3, dy: 0, down: 30 * Int64($0), up: 180, moveFrom: 90)
        }
        let run = LoopRecording.run(TouchScript(device: pad, fingers: fingers).frames(), device: pad, policy: Self.swipes)
        #expect(run.gestures.contains { $0.outline == "swipe begin 3" })
        #expect(!run.modes.contains(.settling))
        #expect(endsWithACancel(run))
        #expect(!run.cloneGestures(device: pad).contains { $0.type == .tap })
    }

    @Test func theClaimedCountOfAStaggeredClaimedSwipeNeverReachesTheClone() {
        for gap: Int64 in [20, 40, 60, 70] {
            let run = LoopRecording.run(swipe(3, gap: gap, jitterFirst: true).frames(), device: pad, policy: Self.swipes)
            #expect(run.mostCloneContacts == 2, "gap \(gap) ms")
        }
    }

    @Test func restingFingersThatThenSwipeAreCutOffStill() {
        // 3 fingers rest 300 ms: the engine's hold begins (unclaimed) and they reach the clone; then they swipe.
        let run = LoopRecording.run(swipe(3, moveFrom: 300).frames(), device: pad, policy: Self.swipes)
        #expect(run.gestures.map(\.outline).starts(with: ["hold begin 3", "hold end 3", "swipe begin 3"]))
        let states = run.cloneStates
        #expect(run.mostCloneContacts == 3)
        // The clone's contacts never moved: every state with contacts has the landing positions.
        let touching = states.filter { !$0.activeSlots.isEmpty }
        #expect(Set(touching.map { $0.value(type: EV.ABS, code: ABS.MT_POSITION_X, slot: 0) }).count == 1)
        #expect(states.last!.activeSlots.isEmpty)
        #expect(!run.cloneGestures(device: pad).contains { $0.type == .swipe || $0.type == .tap })
    }

    @Test func aClaimedSwipeWithMoreFingersThanSlotsNeverReachesTheClone() throws {
        let x1 = try RecordedDevices.x1Carbon
        let fingers = (0..<4).map {
            TouchScript.Finger.moving(20 + 10 * Double($0), 20, dx: 1, dy: 0, down: 20 * Int64($0), up: 400, moveFrom: 100)
        }
        let run = LoopRecording.run(TouchScript(device: x1, fingers: fingers).frames(), device: x1, policy: Self.swipes)
        #expect(run.gestures.contains { $0.outline == "swipe begin 4" })
        #expect(run.mostCloneContacts == 2 && endsWithACancel(run))
        #expect(!run.cloneGestures(device: x1).contains { $0.type == .swipe || $0.type == .tap })
    }

    @Test func aClaimNamingADirectionLetsTheOtherDirectionsThrough() {
        let policy = Policy(claims: [Claim(gesture: .swipe, fingers: 3, direction: .left)])
        let left = LoopRecording.run(swipe(3, dx: -1).frames(), device: pad, policy: policy)
        #expect(left.written.isEmpty)
        let rightFrames = swipe(3, dx: 1).frames()
        let right = LoopRecording.run(rightFrames, device: pad, policy: policy)
        #expect(right.cloneStates == LoopRecording.states(rightFrames))
    }

    // MARK: Taps, pinches, clicks

    @Test(arguments: [1, 2, 3])
    func unclaimedTapsReachTheCloneAsTaps(fingers: Int) {
        let script = TouchScript(
            device: pad,
            fingers: (0..<fingers).map {
                .still(30 + 12 * Double($0), 30, down: 15 * Int64($0), up: 90 + 10 * Int64($0))
            })
        let frames = script.frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes)
        #expect(run.gestures.map(\.outline) == ["tap \(fingers)"])
        #expect(run.cloneGestures(device: pad).map(\.outline) == ["tap \(fingers)"])
        // Three fingers: the two below the claimed count were cancelled when the third landed, and all three land fresh.
        #expect(run.cloneStatesLeavingOutCancels == LoopRecording.states(frames))
        #expect(run.cancelCount == (fingers == 3 ? 1 : 0))
    }

    @Test func aClaimedTapNeverReachesTheCloneButASwipeOfItsFingersDoes() {
        let policy = Policy(claims: [Claim(gesture: .tap, fingers: 3)])
        let tap = TouchScript(device: pad, fingers: (0..<3).map { .still(30 + 12 * Double($0), 30, down: 0, up: 100) })
        #expect(LoopRecording.run(tap.frames(), device: pad, policy: policy).written.isEmpty)
        let staggered = TouchScript(device: pad, fingers: (0..<3).map { .still(30 + 12 * Double($0), 30, down: 20 * Int64($0), up: 100) })
        let run = LoopRecording.run(staggered.frames(), device: pad, policy: policy)
        #expect(run.gestures.map(\.outline) == ["tap 3"])
        #expect(run.mostCloneContacts == 2 && endsWithACancel(run) && !run.cloneGestures(device: pad).contains { $0.type == .tap })
        let frames = swipe(3).frames()
        let swiped = LoopRecording.run(frames, device: pad, policy: policy)
        #expect(swiped.cloneStates == LoopRecording.states(frames))
    }

    @Test func aClaimedTwoFingerPinchNeverReachesTheCloneButScrollingDoes() {
        let policy = Policy(claims: [Claim(gesture: .pinch, fingers: 2)])
        let pinch = TouchScript(
            device: pad,
            fingers: [
                .moving(45, 25, dx: -0.8, dy: 0, down: 0, up: 300, moveFrom: 20),
                .moving(55, 25, dx: 0.8, dy: 0, down: 0, up: 300, moveFrom: 20),
            ])
        let pinched = LoopRecording.run(pinch.frames(), device: pad, policy: policy)
        #expect(pinched.gestures.contains { $0.outline == "pinch begin 2" })
        #expect(pinched.written.isEmpty)
        let scroll = everydayScript("2-finger scroll").frames()
        #expect(LoopRecording.run(scroll, device: pad, policy: policy).cloneStates == LoopRecording.states(scroll))
    }

    /// A 2-finger scroll already on the clone, before the engine has begun a
    /// swipe (which would decide at once), whose second finger vanishes for
    /// a frame: its return is a flicker and goes out at once, as the pacer
    /// catches up with the scroll's held start (held, it would reach the
    /// desktop as a finger gone for 80 ms more).
    @Test func aFlickeringSecondFingerOfAScrollIsNotHeld() {
        let script = TouchScript(
            device: pad,
            fingers: [
                .moving(40, 30, dx: 0, dy: 0.8, down: 0, up: 400),
                .moving(52, 30, dx: 0, dy: 0.8, down: 0, up: 40),
                .moving(52, 33.2, dx: 0, dy: 0.8, down: 50, up: 400),
            ])
        let frames = script.frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes)
        #expect(
            !run.gestures.contains { $0.type == .swipe && $0.time < .microseconds(script.start + 50_000) },
            "the engine began before the flicker")
        let landing = frames.firstIndex { $0.first!.microseconds == script.start + 50_000 }!
        let landingTime = frames[landing].last!.microseconds
        let written = run.written.first { $0.events == Array(frames[landing].dropLast()) }
        #expect(
            written.map { $0.time >= landingTime && $0.time - landingTime <= ClonePacer.maximumSpacing } == true,
            "the landing at \(landingTime) µs was written at \(written.map { "\($0.time)" } ?? "no time") µs")
        #expect(run.cloneStates == LoopRecording.states(frames))
        // Later than the debounce, the same landing is a new landing and waits.
        var late = script
        late.fingers[2] = .moving(52, 42, dx: 0, dy: 0.8, down: 160, up: 400)
        let lateFrames = late.frames()
        let lateRun = LoopRecording.run(lateFrames, device: pad, policy: Self.pinch2)
        #expect(lateRun.modes.contains(.holding))
    }

    @Test func aClickWhileFingersAreHeldLetsThemOutAtOnce() {
        let script = TouchScript(
            device: pad, fingers: [.still(40, 30, down: 0, up: 200), .still(52, 30, down: 0, up: 200)],
            clicks: [30...120])
        let frames = script.frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.pinch2)
        let clickTime = frames.first { $0.contains { $0.type == EV.KEY && $0.code == BTN.LEFT && $0.value == 1 } }!.last!.microseconds
        // Out at the click: the landing at once, the click as soon as the
        // pacer spaces it from the landing (never after the finger wait).
        let landing = run.written.first!.time
        let click = run.written.first { $0.events.contains { $0.code == BTN.LEFT && $0.value == 1 } }?.time
        #expect(landing == clickTime)
        #expect(
            click.map { $0 - clickTime <= ClonePacer.maximumSpacing } == true,
            "the click went out at \(click.map { "\($0)" } ?? "no time") µs")
        #expect(run.cloneStates == LoopRecording.states(frames))
    }

    @Test func oneFingerMotionIsNeverHeldBack() {
        let frames = everydayScript("1-finger motion").frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes)
        // Every frame that moves the finger is written at its own time.
        for frame in frames.dropFirst() where frame.contains(where: { $0.code == ABS.MT_POSITION_X }) {
            #expect(run.written.contains { $0.time == frame.last!.microseconds }, "frame at \(frame.last!.microseconds) µs held")
        }
    }

    @Test func oneFingerPassesAtOnceEvenStill() {
        let frames = TouchScript(device: pad, fingers: [.still(40, 30, down: 0, up: 400)]).frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes)
        #expect(run.written.first!.time == frames[0].last!.microseconds)
        #expect(run.modes == [.passing])
    }

    @Test func twoFingersBelowAClaimedCountPassAtOnceOnATouchpad() {
        let frames = TouchScript(device: pad, fingers: [.still(40, 30, down: 0, up: 250), .still(52, 30, down: 20, up: 250)]).frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes)
        #expect(run.written.map(\.events) == withoutSyn(frames).filter { !$0.isEmpty })
        #expect(run.written.map(\.time) == frames.filter { $0.count > 1 }.map { $0.last!.microseconds })
        #expect(run.modes == [.passing])
    }

    /// Two still fingers in a claimed count (a 2-finger pinch claimed) wait
    /// for the engine's decision (its unclaimed hold) and then last as long
    /// on the clone as on the device, so that they are a tap on neither.
    @Test func twoStillFingersInAClaimedCountLastAsLongOnTheClone() {
        let frames = TouchScript(device: pad, fingers: [.still(40, 30, down: 0, up: 250), .still(52, 30, down: 0, up: 250)]).frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.pinch2)
        let landed = frames[0].last!.microseconds
        #expect(run.written.first!.time > landed)
        #expect(run.written.last!.time - run.written.first!.time == 250_000)
        #expect(run.cloneStates == LoopRecording.states(frames))
        #expect(!run.gestures.contains { $0.type == .tap } && !run.cloneGestures(device: pad).contains { $0.type == .tap })
        #expect(run.reasons.contains(.tapTiming))
    }

    /// On a touchscreen one finger is a touch in the application below it:
    /// with a claim on more fingers, a first touch waits for the next
    /// landing (the finger wait), and a claimed swipe whose fingers land
    /// apart never reaches the clone at all.
    @Test func aTouchscreensFirstTouchWaitsAndAClaimedSwipeNeverTouchesTheClone() throws {
        let screen = try RecordedDevices.maXTouch
        let touch = TouchScript(device: screen, fingers: [.still(40, 30, down: 0, up: 300)]).frames()
        let held = LoopRecording.run(touch, device: screen, policy: Self.swipes)
        #expect(held.written.first!.time == touch[0].last!.microseconds + 80_000)
        #expect(held.cloneStates == LoopRecording.states(touch))
        for apart: Int64 in [10, 40, 60] {
            let swipe = TouchScript.swipe(
                on: screen, fingers: 3, landingApartMilliseconds: apart, millimeters: 40, direction: .down, millimetersPer10ms: 2)
            let run = LoopRecording.run(swipe.frames(), device: screen, policy: Self.swipes)
            #expect(run.gestures.contains { $0.outline == "swipe begin 3" }, "\(apart) ms apart: \(run.gestures.map(\.outline))")
            #expect(run.written.isEmpty, "\(apart) ms apart: \(run.written.map(\.events))")
        }
    }

    /// A held tap let out at its lift reaches the clone whole, at the
    /// device's own pace (the pacer keeps its timing, which libinput's tap
    /// and hold timers go by), not at twice its speed.
    @Test func aHeldTapIsLetOutAsAWholeTouch() {
        let frames = TouchScript(device: pad, fingers: [.still(40, 30, down: 0, up: 40), .still(52, 30, down: 0, up: 40)]).frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.pinch2)
        #expect(run.cloneStates == LoopRecording.states(frames))
        let lift = frames.first { $0.contains { $0.code == ABS.MT_TRACKING_ID && $0.value == -1 } }!.last!.microseconds
        let landing = frames[0].last!.microseconds
        #expect(run.written.first!.time == lift, "held until the lift")
        let liftWritten = run.written.first { $0.events.contains { $0.code == ABS.MT_TRACKING_ID && $0.value == -1 } }!.time
        #expect(liftWritten - run.written.first!.time == lift - landing)
    }

    @Test func aMovingTouchLiftsOnTheCloneWhenItLifts() {
        let frames = everydayScript("2-finger scroll").frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes)
        let lift = frames.first { $0.contains { $0.code == ABS.MT_TRACKING_ID && $0.value == -1 } }!.last!.microseconds
        #expect(run.written.last!.time == lift)
    }

    // MARK: Robustness

    @Test func aNewTouchAfterACancelledClaimLandsFresh() {
        var script = swipe(3, gap: 30, jitterFirst: true)
        let end = script.fingers.map(\.up).max()!
        script.fingers.append(.still(60, 40, down: end + 30, up: end + 500))
        let run = LoopRecording.run(script.frames(), device: pad, policy: Self.swipes)
        #expect(run.cancelCount == 1)
        // The new touch lands as a finger, one contact, and lifts.
        var state = EvdevState()
        var landedAfterCancel = false
        for (index, frame) in run.written.map(\.events).enumerated() {
            state.apply(frame)
            if index > 1, LoopRecording.cancels(run.written[index - 2].events) || landedAfterCancel, state.isTouching {
                landedAfterCancel = true
                #expect(state.activeSlots.count == 1)
                #expect(state.activeSlots.allSatisfy { state.value(type: EV.ABS, code: ABS.MT_TOOL_TYPE, slot: $0) == MT_TOOL.FINGER })
            }
        }
        #expect(landedAfterCancel)
        #expect(state.released == state)
    }

    @Test func droppedEventsWhileHoldingBringTheCloneToTheDevice() {
        let frames = swipe(3, gap: 20).frames()
        var device = EvdevState()
        for frame in frames.prefix(7) { device.apply(frame) }
        let resyncTime = frames[6].last!.microseconds
        let run = LoopRecording.run(
            Array(frames.prefix(5)), device: pad, policy: Self.swipes,
            prepare: { io in
                io.schedule(.resync(to: device), device: 1, at: resyncTime)
                io.end = resyncTime
            })
        #expect(run.modes == [.passing, .holding, .passing])
        #expect(run.warnings.count == 1 && run.warnings[0].contains("the kernel dropped events from /dev/input/event1"))
        var clone = EvdevState()
        for frame in run.written.map(\.events) { clone.apply(frame.filter { $0.code != ABS.MT_TOOL_TYPE }) }
        #expect(clone == device)
        #expect(run.written.last!.time == resyncTime)
        #expect(run.gestures.allSatisfy { $0.phase != .begin || $0.fingers != 3 }, "a swipe began from an incomplete stream")
    }

    @Test func everyTouchEndsWithTheCloneReleasedAndNothingClaimedChangesNothing() {
        var random = SplitMix64(seed: 42)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(random.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        let policies = [
            Self.swipes, Policy(claims: [Claim(gesture: .pinch), Claim(gesture: .tap, fingers: 3)]),
            Policy(claims: [Claim(gesture: .hold, fingers: 2), Claim(gesture: .swipe, fingers: 5)]),
        ]
        for round in 0..<60 {
            var script = TouchScript(device: pad)
            var t: Int64 = 0
            for _ in 0..<Int(random.next() % 3 + 1) {
                let count = Int(random.next() % 5 + 1)
                let duration = Int64(uniform(40...500))
                let dx = uniform(-1.5...1.5), dy = uniform(-1.5...1.5)
                for index in 0..<count {
                    let down = t + Int64(uniform(0...70))
                    script.fingers.append(
                        .moving(
                            20 + 12 * Double(index), 20 + uniform(0...10), dx: dx, dy: dy,
                            down: down, up: down + duration, moveFrom: t + Int64(uniform(0...150))))
                }
                t += duration + 200
            }
            let frames = script.frames()
            let identity = LoopRecording.run(frames, device: pad, policy: Policy())
            #expect(identity.written.map(\.events) == withoutSyn(frames).filter { !$0.isEmpty }, "round \(round)")
            for policy in policies {
                let run = LoopRecording.run(frames, device: pad, policy: policy)
                let last = run.cloneStates.last ?? EvdevState()
                #expect(!last.isTouching && last.released == last, "round \(round): the clone ended at \(last)")
                #expect(run.modes.last == .passing, "round \(round)")
            }
        }
    }

    // MARK: Recordings

    /// The synthetic recordings of touchpads, with the claims of a typical
    /// setup: 3- and 4-finger swipes, 3-finger pinches.
    @Test func syntheticRecordingsClaimedOrNot() throws {
        let directory = RecordedDevices.directory.deletingLastPathComponent().appendingPathComponent("synthetic")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".expected.jsonl") && !$0.hasPrefix("atmel") }.sorted()
        #expect(names.count > 20)
        let policy = Policy(claims: [
            Claim(gesture: .swipe, fingers: 3), Claim(gesture: .swipe, fingers: 4),
            Claim(gesture: .pinch, fingers: 3),
        ])
        for name in names {
            let trace = try Trace.load(contentsOf: directory.appendingPathComponent(name))
            let device = trace.devices[0]
            guard device.kind == .touchpad else { continue }  // the mice's traces
            let frames = trace.frames.map(\.events)
            let run = LoopRecording.run(frames, device: device, policy: policy)
            let claimed = run.gestures.contains { ($0.phase == .begin || $0.type == .tap) && policy.verdict(for: $0) == .claimed }
            let clone = run.cloneGestures(device: device)
            let states = LoopRecording.states(frames)
            if claimed {
                #expect(
                    !clone.contains { $0.type == .swipe || $0.type == .pinch || $0.type == .tap },
                    "\(name): the clone made \(clone.map(\.outline))")
            } else {
                // Every state the clone goes through is one the device went
                // through, in order (a long hold may be sent shortened), and
                // it makes the same gestures, but for one-finger holds (the
                // clone sees the first finger alone longer while later ones wait),
                // and but for updates: frames held back while the fingers
                // might still make a claimed gesture (three down, one of them
                // a resting thumb the engine leaves out later) are sent as
                // their last state, so the clone's gesture has fewer updates.
                let cloneStates = run.cloneStatesLeavingOutCancels
                #expect(cloneStates.isSubsequence(of: states) && cloneStates.last == states.last, "\(name)")
                // The pacer replays a held start at twice its speed too: so
                // updates are left out, and each begin and end must agree
                // (an end with its direction).
                let outline = { (events: [GestureEvent]) -> [String] in
                    var lines: [String] = []
                    for event in events where !(event.type == .hold && event.fingers == 1) && event.phase != .update {
                        var line = event.outline
                        if event.phase == .end, let direction = event.direction { line += " " + direction.rawValue }
                        lines.append(line)
                    }
                    return lines
                }
                let original = LoopRecording.oracleGestures(of: frames.flatMap { $0 }, device: device)
                #expect(outline(clone) == outline(original), "\(name)")
            }
        }
    }
}

extension Array where Element: Equatable {
    /// Whether every element of this array appears in `other`, in the same order.
    func isSubsequence(of other: [Element]) -> Bool {
        var index = other.startIndex
        for element in self {
            guard let found = other[index...].firstIndex(of: element) else { return false }
            index = found + 1
        }
        return true
    }
}
