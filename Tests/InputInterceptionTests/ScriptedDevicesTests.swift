import DeviceScripts
import InputInterception
import Testing
import TouchInput

/// The fake of the kernel keeps the kernel's rules, and says when a caller breaks one.
@Suite struct ScriptedDevicesTests {
    static let report = InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 1_000)
    static let motion = [InputEvent(type: EV.ABS, code: ABS.X, value: 5, microseconds: 1_000), report]
    static let landing = [
        InputEvent(type: EV.ABS, code: ABS.MT_TRACKING_ID, value: 3, microseconds: 2_000),
        InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 2_000),
    ]

    /// Devices whose broken rules are collected rather than recorded as issues.
    static func devices(_ broken: @escaping (String) -> Void) -> ScriptedDevices {
        let io = ScriptedDevices(start: 0, end: 10_000, brokenRule: broken)
        io.add(1, DeviceFacts(node: "/dev/input/event1", description: DeviceDescription(name: "pad")))
        return io
    }

    @Test("closing a grabbed device, writing to a clone that is not there and arming without a clone are broken rules")
    func brokenRulesAreSaid() throws {
        var broken: [String] = []
        let io = Self.devices { broken.append($0) }
        try io.writeClone([Self.motion], of: 1)
        io.forwardMotion(true, of: 1)
        _ = io.intercept(1)
        io.close(1)
        #expect(
            broken == [
                "written to the clone of device 1, which has none", "device 1 armed without a clone", "device 1 closed while grabbed",
            ])
    }

    @Test("an armed device's motion goes to its clone as it is read, by the reader's rule; a landing does not")
    func armedMotionIsForwarded() throws {
        var broken: [String] = []
        let io = Self.devices { broken.append($0) }
        io.schedule(frames: [Self.motion, Self.landing], device: 1)
        _ = io.intercept(1)
        io.forwardMotion(true, of: 1)
        let first = try io.read(until: nil).items
        let second = try io.read(until: nil).items
        guard case .forwarded(1, Self.motion)? = first.first, case .frame(1, Self.landing)? = second.first else {
            Issue.record("read \(first) then \(second)")
            return
        }
        #expect(io.written.map(\.forwarded) == [true] && io.written.map(\.events) == [[Self.motion[0]]])
        #expect(io.state(of: 1).activeSlots == [0], "the state is what the frames left")
        #expect(broken.isEmpty, "\(broken)")
    }

    @Test("a loop that reads on with nothing coming and the clock standing still is stopped and told")
    func idleReadingIsStopped() throws {
        var broken: [String] = []
        let io = Self.devices { broken.append($0) }
        var reads = 0
        while try !io.read(until: 0).woken { reads += 1 }
        #expect(reads > 1_000 && broken.count == 1 && io.stopped, "\(reads) reads, \(broken)")
    }
}
