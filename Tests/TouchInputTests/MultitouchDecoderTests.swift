import GestureRecognition
import TestSupport
import Testing
import TouchInput

@Suite struct MultitouchDecoderTests {
    @Test func protocolBTouchesKeepTheirIdsAndConvertToMillimetres() throws {
        var script = EventScript()
        script.touch(slot: 0, id: 10, x: 1266 + 450, y: 1096 + 680)
        script.key(BTN.TOUCH, true); script.key(BTN.TOOL_FINGER, true)
        script.report()
        script.touch(slot: 0, x: 1266 + 900, y: 1096 + 680)
        script.report()
        script.lift(slot: 0)
        script.key(BTN.TOUCH, false); script.key(BTN.TOOL_FINGER, false)
        script.report()
        let frames = script.frames(on: try RecordedDevices.x1Carbon)
        #expect(frames.count == 3)
        #expect(frames[0].contacts.map(\.position) == [Point(x: 10, y: 10)])
        #expect(frames[1].contacts.map(\.position) == [Point(x: 20, y: 10)])
        #expect(frames[0].contacts[0].id == frames[1].contacts[0].id)
        #expect(frames[0].fingerCount == 1 && frames[2].fingerCount == 0)
        #expect(frames[2].contacts.isEmpty && !frames[2].isTouching)
        #expect(frames[0].contacts[0].pressure == nil)  // no ABS_MT_PRESSURE on this pad
    }

    @Test func newTrackingIdInTheSameSlotIsANewContact() throws {
        var script = EventScript()
        script.touch(slot: 0, id: 1, x: 2000, y: 2000); script.report()
        script.abs(ABS.MT_TRACKING_ID, 2); script.report()
        let frames = script.frames(on: try RecordedDevices.x1Carbon)
        #expect(frames[0].contacts[0].id != frames[1].contacts[0].id)
    }

    @Test(arguments: [(BTN.TOOL_TRIPLETAP, 3), (BTN.TOOL_QUADTAP, 4), (BTN.TOOL_QUINTTAP, 5)])
    func moreFingersThanSlotsComeFromToolKeys(key: UInt16, fingers: Int) throws {
        var script = EventScript()
        script.touch(slot: 0, id: 1, x: 2000, y: 2000)
        script.touch(slot: 1, id: 2, x: 3000, y: 2000)
        script.key(BTN.TOUCH, true); script.key(key, true)
        script.report()
        let frame = script.frames(on: try RecordedDevices.x1Carbon)[0]
        #expect(frame.contacts.count == 2)
        #expect(frame.fingerCount == fingers)
    }

    @Test(arguments: [true, false])
    func toolKeyWithoutTouchKeyHoversOnSemiMTPadsOnly(semiMT: Bool) throws {
        // A Synaptics pad sends BTN_TOOL_FINGER and a position from a pressure
        // above 0, BTN_TOUCH from 30: the finger hovers, touches, hovers.
        // On a semi-MT pad only the frame with BTN_TOUCH has a finger; a plain
        // single-touch pad (no MT axes) keeps counting BTN_TOOL_FINGER.
        var pad = try RecordedDevices.x1Carbon
        if semiMT {
            pad.properties.insert(INPUT_PROP.SEMI_MT)
        } else {
            pad.codes[EV.ABS]?.subtract([ABS.MT_SLOT, ABS.MT_POSITION_X, ABS.MT_POSITION_Y, ABS.MT_TRACKING_ID])
        }
        #expect(pad.contactProtocol == .singleTouch)
        var script = EventScript()
        script.key(BTN.TOUCH, false)
        script.report()
        script.abs(ABS.X, 2000); script.abs(ABS.Y, 2000); script.key(BTN.TOOL_FINGER, true)
        script.report()
        script.key(BTN.TOUCH, true)
        script.report()
        script.key(BTN.TOUCH, false)
        script.report()
        let frames = script.frames(on: pad)
        #expect(frames.map(\.fingerCount) == (semiMT ? [0, 0, 1, 0] : [0, 1, 1, 1]))
        #expect(frames.map(\.contacts.count) == (semiMT ? [0, 0, 1, 0] : [0, 1, 1, 1]))
    }

    @Test func touchscreenCountsFingersFromContacts() throws {
        var script = EventScript()
        for slot in Int32(0)..<4 { script.touch(slot: slot, id: slot + 7, x: 100 * (slot + 1), y: 200) }
        script.key(BTN.TOUCH, true)
        script.report()
        let frame = script.frames(on: try RecordedDevices.maXTouch)[0]
        #expect(frame.fingerCount == 4)
        #expect(Set(frame.contacts.map(\.id)).count == 4)
    }

    @Test func touchscreenIgnoresToolKeys() throws {
        // The N-Trig touchscreen sends BTN_TOOL_DOUBLETAP with its first touch.
        var script = EventScript()
        script.touch(slot: 0, id: 1, x: 100, y: 100)
        script.key(BTN.TOUCH, true)
        script.key(BTN.TOOL_DOUBLETAP, true)
        script.report()
        let frame = script.frames(on: try RecordedDevices.maXTouch)[0]
        #expect(frame.fingerCount == 1)
        #expect(script.frames(on: try RecordedDevices.x1Carbon)[0].fingerCount == 2)
    }

    @Test func touchscreenPalmToolIsFlagged() throws {
        var screen = try RecordedDevices.maXTouch
        screen.enable(ABS.MT_TOOL_TYPE, AbsInfo(minimum: 0, maximum: 2))  // a touchscreen that reports the tool
        var script = EventScript()
        script.touch(slot: 0, id: 1, x: 100, y: 100)
        script.abs(ABS.MT_TOOL_TYPE, MT_TOOL.PALM)
        script.report()
        #expect(script.frames(on: screen)[0].contacts[0].isPalm)
    }

    @Test(arguments: [(Int32(131), true), (Int32(130), false), (Int32(40), false)])
    func touchpadPressureOverThresholdIsAPalmUntilItLifts(pressure: Int32, palm: Bool) throws {
        let pad = try RecordedDevices.rmi4WithPressure
        var script = EventScript()
        script.touch(slot: 0, id: 1, x: 500, y: 500)
        script.abs(ABS.MT_PRESSURE, 50)
        script.touch(slot: 1, id: 2, x: 1500, y: 800)
        script.abs(ABS.MT_PRESSURE, pressure)
        script.report()
        script.abs(ABS.MT_SLOT, 1)
        script.abs(ABS.MT_PRESSURE, 20)  // the palm eases off: still a palm
        script.report()
        script.lift(slot: 1)
        script.report()
        script.touch(slot: 1, id: 3, x: 1500, y: 800)  // a new touch in the same slot
        script.abs(ABS.MT_PRESSURE, 20)
        script.report()
        let frames = script.frames(on: pad)
        #expect(frames[0].contacts.map(\.isPalm) == [false, palm])
        #expect(frames[1].contacts.map(\.isPalm) == [false, palm])
        #expect(frames[3].contacts.map(\.isPalm) == [false, false])
        // Off when the detection is turned off.
        var decoder = MultitouchDecoder(device: pad, palmDetection: .init(pressureFraction: nil))
        let first = script.events.lazy.compactMap { decoder.process($0) }.first
        #expect(first?.contacts.contains { $0.isPalm } == false)
    }

    @Test(arguments: [(Int32(0), Int32(255), Int32(130)), (Int32(0), Int32(50), Int32(25)), (Int32(10), Int32(1034), Int32(532))])
    func palmPressureIsAFractionOfThePadsOwnRange(minimum: Int32, maximum: Int32, threshold: Int32) throws {
        // libinput's 130 of 0-255, on a pad whose pressure axis is another (the Logitech touchpads: 0-50).
        var pad = try RecordedDevices.rmi4WithPressure
        pad.absInfo[ABS.MT_PRESSURE] = AbsInfo(minimum: minimum, maximum: maximum)
        #expect(MultitouchDecoder.PalmDetection().pressureThreshold(on: pad) == threshold)
        for (pressure, palm) in [(threshold + 1, true), (threshold, false)] {
            var script = EventScript()
            script.touch(slot: 0, id: 1, x: 500, y: 500)
            script.abs(ABS.MT_PRESSURE, pressure)
            script.report()
            #expect(script.frames(on: pad)[0].contacts.map(\.isPalm) == [palm], "pressure \(pressure) of \(minimum)-\(maximum)")
        }
    }

    @Test func protocolAContactsAreMatchedByNearestPosition() throws {
        var script = EventScript()
        func contact(_ x: Int32, _ y: Int32) {
            script.abs(ABS.MT_POSITION_X, x); script.abs(ABS.MT_POSITION_Y, y); script.syn(SYN.MT_REPORT)
        }
        script.key(BTN.TOUCH, true)
        contact(1000, 1000); script.report()
        // A second finger arrives; the drivers report it first.
        contact(2000, 1000); contact(1010, 1000); script.report()
        contact(2010, 1000); contact(1020, 1000); script.report()
        script.key(BTN.TOUCH, false); script.report()
        let frames = script.frames(on: VirtualDevices.protocolA)
        let first = try #require(frames[0].contacts.first?.id)
        #expect(frames[1].contacts.map(\.id) == [first + 1, first])
        #expect(frames[2].contacts.map(\.id) == [first + 1, first])
        #expect(frames[3].contacts.isEmpty)
    }

    @Test func jumpOfMoreThan20MillimetresIsDiscardedOnTouchpads() throws {
        var script = EventScript()
        script.touch(slot: 0, id: 1, x: 1266 + 450, y: 2000); script.report()
        script.touch(slot: 0, x: 1266 + 450 + 45 * 40, y: 2000); script.report()  // 40 mm in 12 ms
        script.touch(slot: 0, x: 1266 + 450 + 45, y: 2000); script.report()  // back, 1 mm from the start
        let frames = script.frames(on: try RecordedDevices.x1Carbon)
        #expect(frames[1].discardedJumps == 1)
        #expect(frames[1].contacts[0].position == frames[0].contacts[0].position)
        #expect(abs(frames[2].contacts[0].position.x - 11) < 0.01)
    }

    @Test func repeatedFarSampleIsRealMotionAndAccepted() throws {
        var script = EventScript()
        script.touch(slot: 0, id: 1, x: 1266 + 450, y: 2000); script.report()
        script.touch(slot: 0, x: 1266 + 450 + 45 * 40, y: 2000); script.report()
        script.touch(slot: 0, x: 1266 + 450 + 45 * 41, y: 2000); script.report()
        let frames = script.frames(on: try RecordedDevices.x1Carbon)
        #expect(frames[1].discardedJumps == 1)
        #expect(frames[2].discardedJumps == 0)
        #expect(abs(frames[2].contacts[0].position.x - 51) < 0.01)
    }

    @Test func slotOutOfRangeAndUnknownCodesAreIgnored() throws {
        var script = EventScript()
        script.touch(slot: 7, id: 3, x: 2000, y: 2000)
        script.abs(ABS.MT_SLOT, -5)
        script.abs(ABS.MT_POSITION_X, 1)
        script.events.append(InputEvent(type: 0x1e, code: 0xffff, value: .max, microseconds: script.time))
        script.events.append(InputEvent(type: EV.KEY, code: 0x2ff, value: 1, microseconds: script.time))
        script.abs(0x3f, 12)
        script.report()
        let frames = script.frames(on: try RecordedDevices.x1Carbon)
        #expect(frames.count == 1)
        #expect(frames[0].contacts.isEmpty)
    }

    @Test func trailingFrameWithoutSynReportIsClosedByFinish() throws {
        var script = EventScript()
        script.touch(slot: 0, id: 1, x: 2000, y: 2000); script.report()
        script.touch(slot: 0, x: 2045, y: 2000)
        let frames = script.frames(on: try RecordedDevices.x1Carbon)
        #expect(frames.count == 2)
        #expect(frames[1].contacts[0].position.x > frames[0].contacts[0].position.x)
        var decoder = MultitouchDecoder(device: try RecordedDevices.x1Carbon)
        #expect(decoder.finish() == nil)
    }

    @Test func synDroppedDiscardsEventsUntilTheNextReport() throws {
        var script = EventScript()
        script.touch(slot: 0, id: 1, x: 2000, y: 2000); script.report()
        script.syn(SYN.DROPPED)
        script.touch(slot: 0, x: 4000, y: 4000)
        script.report()
        let frames = script.frames(on: try RecordedDevices.x1Carbon)
        #expect(frames[1].followsDroppedEvents)
        #expect(frames[1].contacts[0].position == frames[0].contacts[0].position)
    }

    @Test func mouseReportsRelativeMotionAndButtonsPerFrame() throws {
        var script = EventScript()
        script.rel(REL.X, 3); script.rel(REL.X, 2); script.rel(REL.Y, -4); script.key(BTN.LEFT, true); script.report()
        script.rel(REL.WHEEL, 1); script.report()
        let frames = script.frames(on: try RecordedDevices.mouse)
        #expect(frames[0].relativeX == 5 && frames[0].relativeY == -4 && frames[0].buttons == .left)
        #expect(frames[1].relativeX == 0 && frames[1].wheel == 1 && frames[1].buttons == .left)
    }
}
