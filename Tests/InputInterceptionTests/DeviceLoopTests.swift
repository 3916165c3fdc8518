import DeviceScripts
import GestureRecognition
import InputInterception
import TestSupport
import Testing
import TouchInput

/// The daemon's loop over fake devices: what it does to a device (grabs,
/// releases, writes) whatever happens, and the policy it asks between touches.
@Suite struct DeviceLoopTests {
    let pad: DeviceDescription
    init() throws { pad = try RecordedDevices.rmi4 }

    typealias Policy = PassThroughFilter.Policy
    static let swipes = Policy(claims: [.init(gesture: .swipe, fingers: 3), .init(gesture: .swipe, fingers: 4)])

    /// A 3-finger swipe right starting at `at` ms.
    func swipe(at start: Int64 = 0) -> [TouchScript.Finger] {
        (0..<3).map { .moving(20 + 10 * Double($0), 25, dx: 1, dy: 0, down: start, up: start + 270, moveFrom: start + 20) }
    }

    @Test func aPolicyChangeAppliesFromTheNextTouch() {
        // The first touch is asked with nothing claimed; from the second on, 3-finger swipes are.
        let script = TouchScript(device: pad, fingers: swipe() + swipe(at: 500))
        let frames = script.frames()
        let second = script.start + 500_000
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes, claims: { now in now < second ? Policy() : Self.swipes })
        #expect(run.gestures.filter { $0.outline == "swipe begin 3" }.count == 2)
        // The first swipe reached the clone whole; nothing of the second did.
        #expect(run.written.contains { $0.time < second && $0.events.contains { $0.code == ABS.MT_TRACKING_ID && $0.value >= 0 } })
        #expect(!run.written.contains { $0.time >= second }, "the second, claimed swipe reached the clone")
        #expect(
            LoopRecording.states(run.written.filter { $0.time < second }.map(\.events))
                == LoopRecording.states(frames.filter { $0.last!.microseconds < second }))
    }

    @Test func aPolicyChangeInTheMiddleOfATouchWaitsForTheNextOne() {
        var askedAfterTheChange = false
        let script = TouchScript(device: pad, fingers: swipe())
        let frames = script.frames()
        // 3-finger swipes are claimed from 50 ms on, while the swipe is down.
        let change = script.start + 50_000
        let run = LoopRecording.run(
            frames, device: pad, policy: Self.swipes,
            claims: { now in
                if now >= change { askedAfterTheChange = true }
                return now < change ? Policy() : Self.swipes
            })
        #expect(LoopRecording.states(run.written.map(\.events)) == LoopRecording.states(frames))
        #expect(askedAfterTheChange, "not asked again once every finger lifted")
    }

    @Test func theCpuElsewhereAfterAWriteDelaysTheNextFrameNoFurther() {
        // A 2-finger scroll, held while the engine decides (a 2-finger pinch
        // is claimed), then let out at twice its pace (a frame every 5 ms);
        // after the burst's first write the readers it woke have the CPU for
        // 20 ms. The next frame goes out as soon as the loop runs again, not
        // 5 ms later still: spaced from the write, not from the loop's return.
        let fingers: [TouchScript.Finger] = [0, 1].map {
            .moving(30 + 15 * Double($0), 20, dx: 0, dy: 1.2, down: 0, up: 300, moveFrom: 20)
        }
        let frames = TouchScript(device: pad, fingers: fingers).frames()
        let pinch = Policy(claims: [.init(gesture: .pinch, fingers: 2)])
        let run = LoopRecording.run(frames, device: pad, policy: pinch, prepare: { $0.writeDelays = [20_000] })
        #expect(LoopRecording.states(run.written.map(\.events)) == LoopRecording.states(frames))
        let times = run.written.map(\.time)
        #expect(times.count > 10)
        #expect(times.count > 1 && times[1] - times[0] == 20_000)
        let closest = zip(times, times.dropFirst()).map { $1 - $0 }.min() ?? 0
        #expect(closest >= 4_000, "two frames reached the clone \(closest) µs apart")
    }

    @Test func aCloneThatCannotBeWrittenToReleasesItsDeviceAndReadingGoesOn() {
        let frames = TouchScript(device: pad, fingers: [.moving(30, 20, dx: 0.7, dy: 0, down: 0, up: 200)] + swipe(at: 400)).frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes, prepare: { $0.failingClones = [1] })
        #expect(
            run.warnings == [
                "stopped intercepting /dev/input/event1 (\(pad.name)), reading it beside the desktop: Cannot write to /dev/uinput: No such device."
            ])
        #expect(run.io.grabbed.isEmpty)
        #expect(run.gestures.contains { $0.outline == "swipe begin 3" }, "the device was no longer read")
        #expect(run.outputs.allSatisfy { if case .handOver = $0 { false } else { true } })
    }

    @Test func aDeviceGoneInTheMiddleOfAClaimedSwipeIsReleasedAndItsSwipeCancelled() {
        let frames = TouchScript(device: pad, fingers: swipe()).frames()
        let gone = frames[12].last!.microseconds
        let run = LoopRecording.run(
            Array(frames.prefix(12)), device: pad, policy: Self.swipes,
            prepare: { io in
                io.schedule(.remove, device: 1, at: gone)
            })
        #expect(run.gestures.first?.outline == "swipe begin 3")
        #expect(run.gestures.last.map { $0.phase == .end && $0.cancelled == true } == true)
        guard case .removed(let device, let error)? = run.outputs.last else {
            Issue.record("no removal: \(run.outputs)")
            return
        }
        #expect(device.id == 1 && error.description == "The device 1 is gone.")
        #expect(run.io.grabbed.isEmpty && run.written.isEmpty && run.writtenAtStop.isEmpty)
    }

    @Test func aFailingReadGivesEveryDeviceBack() {
        let frames = TouchScript(device: pad, fingers: swipe()).frames()
        let io = ScriptedDevices(start: 0, end: frames.last!.last!.microseconds + 1_000_000)
        io.add(1, DeviceFacts(node: "/dev/input/event1", description: pad))
        io.schedule(frames: frames, device: 1)
        io.readFailsAt = frames[10].last!.microseconds
        let loop = DeviceLoop(
            io: io, devices: [1], intercepts: true, setup: { _ in .init() },
            claims: { _ in Self.swipes }, warn: { _ in })
        #expect(throws: ScriptedDevices.Failure.self) { try loop.run { _ in true } }
        #expect(io.grabbed.isEmpty)
    }

    @Test func theEndOfTheLoopBringsTheCloneToTheDeviceAndGivesItBack() {
        // Stopped while a claimed swipe is down: the clone gets what the device holds, then goes.
        let frames = TouchScript(device: pad, fingers: swipe()).frames()
        let stop = frames[15].last!.microseconds
        let run = LoopRecording.run(Array(frames.prefix(15)), device: pad, policy: Self.swipes, prepare: { $0.end = stop })
        #expect(run.written.isEmpty)
        var clone = EvdevState(), device = EvdevState()
        for frame in run.writtenAtStop { clone.apply(frame) }
        for frame in frames.prefix(15) { device.apply(frame) }
        #expect(clone == device)
        #expect(run.gestures.last.map { $0.phase == .end && $0.cancelled == true } == true)
    }

    @Test func devicesThisPackageMadeAreNeverReadWhenIntercepting() {
        let io = ScriptedDevices(start: 0, end: 1_000_000)
        io.add(1, DeviceFacts(node: "/dev/input/event1", description: pad, isMadeByGestures: true))
        io.add(2, DeviceFacts(node: "/dev/input/event2", description: pad))
        io.schedule(.plug, device: 2, at: 10_000)
        let loop = DeviceLoop(io: io, devices: [1], intercepts: true, setup: { _ in .init() }, warn: { _ in })
        #expect(loop.devices.isEmpty && io.closed == [1] && io.grabbed.isEmpty)
        var opened: [LiveDevice] = []
        try? loop.run { output in
            if case .opened(let device) = output { opened.append(device) }
            return true
        }
        #expect(opened.map(\.node) == ["/dev/input/event2"] && opened[0].cloneNode == "/dev/input/clone2")
        let beside = DeviceLoop(io: io, devices: [1], intercepts: false, setup: { _ in .init() }, warn: { _ in })
        #expect(beside.devices.map(\.node) == ["/dev/input/event1"] && beside.devices[0].cloneNode == nil)
    }

    @Test func aDeviceThatCannotBeClonedIsReadBesideTheDesktop() {
        let frames = TouchScript(device: pad, fingers: swipe()).frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes, prepare: { $0.unclonable = [1] })
        #expect(run.written.isEmpty && run.io.grabbed.isEmpty)
        #expect(run.gestures.contains { $0.outline == "swipe begin 3" })
        guard case .opened(let device)? = run.outputs.first else {
            Issue.record("not opened first: \(run.outputs)")
            return
        }
        #expect(device.cloneNode == nil)
    }

    @Test func theSetupDecidesWhichDevicesAreRead() {
        let io = ScriptedDevices(start: 0, end: 1_000_000)
        io.add(1, DeviceFacts(node: "/dev/input/event1", description: pad))
        var keyboard = DeviceDescription(name: "a keyboard")
        keyboard.codes[EV.KEY] = [30, 31, 32]  // KEY_A, KEY_S, KEY_D: no surface to make gestures on
        io.add(2, DeviceFacts(node: "/dev/input/event2", description: keyboard))
        io.add(3, DeviceFacts(node: "/dev/input/event3", description: pad))
        let loop = DeviceLoop(
            io: io, devices: [1, 2, 3], intercepts: true,
            setup: { $0.node.hasSuffix("3") ? nil : .init() }, warn: { _ in })
        #expect(loop.devices.map(\.node) == ["/dev/input/event1"])
        #expect(io.closed == [2, 3] && io.grabbed == [1])
    }
}

extension DeviceLoopTests {
    /// Runs a 3-finger swipe through the loop, asking for frames as `watched` says.
    func frames(watched: @escaping (Int) -> Bool) throws -> (frames: [TouchFrame], read: Int) {
        let frames = TouchScript(device: pad, fingers: swipe()).frames()
        let io = ScriptedDevices(start: 0, end: frames.last!.last!.microseconds + 1_000_000)
        io.add(1, DeviceFacts(node: "/dev/input/event1", description: pad))
        io.schedule(frames: frames, device: 1)
        var asked = 0
        let loop = DeviceLoop(
            io: io, devices: [1], intercepts: false, setup: { _ in .init() }, warn: { _ in },
            watchesFrames: {
                asked += 1
                return watched(asked)
            })
        var handed: [TouchFrame] = []
        try loop.run { output in
            if case .frame(let frame, _) = output { handed.append(frame) }
            return true
        }
        return (handed, frames.count)
    }

    @Test func anUnwatchedLoopHandsOutNoFrame() throws {
        #expect(try frames(watched: { _ in false }).frames.isEmpty)
    }

    @Test func aWatchedLoopHandsOutEveryFrameItReadsWhileWatched() throws {
        let all = try frames(watched: { _ in true })
        #expect(all.frames.count == all.read)
        #expect(all.frames.first?.contacts.count == 3 && all.frames.last?.contacts.isEmpty == true)
        // Watched from the tenth frame on: the frames before it are not made up afterwards.
        let later = try frames(watched: { $0 >= 10 })
        #expect(later.frames.count == all.read - 9)
        #expect(later.frames == Array(all.frames.suffix(all.read - 9)))
    }
}
