import TestSupport
import Testing
import TouchInput

@Suite struct DeviceDescriptionTests {
    @Test func touchpadWithResolutionHasItsPhysicalSize() throws {
        let pad = try RecordedDevices.x1Carbon
        #expect(pad.kind == .touchpad)
        #expect(pad.slotCount == 2)
        #expect(pad.maximumToolFingerCount == 5)
        #expect(pad.contactProtocol == .slots)
        #expect(pad.isClickpad && pad.hasResolution)
        let size = try #require(pad.sizeMillimeters)
        #expect(abs(size.width - 98) < 0.1 && abs(size.height - 53.9) < 0.1)
    }

    @Test func pressureIsPerContactOnMultitouchDevices() throws {
        // The X1 Carbon reports ABS_PRESSURE only: the first contact's, not each contact's.
        var pad = try RecordedDevices.x1Carbon
        #expect(!pad.hasPressure)
        #expect(try RecordedDevices.rmi4WithPressure.hasPressure)
        // Read as single-touch, its ABS_PRESSURE is the one contact's pressure.
        pad.properties.insert(INPUT_PROP.SEMI_MT)
        #expect(pad.hasPressure)
    }

    @Test func touchpadWithoutResolutionIsAssumedToBe69By50Millimeters() throws {
        let size = try #require(VirtualDevices.protocolA.sizeMillimeters)
        #expect(size.width == 69 && size.height == 50)
        #expect(VirtualDevices.protocolA.contactProtocol == .anonymous)
    }

    @Test func touchscreenWithoutResolutionHas250MillimetreLongerSideAndSquareUnits() throws {
        let screen = try RecordedDevices.maXTouch
        #expect(screen.kind == .touchscreen)
        let size = try #require(screen.sizeMillimeters)
        #expect(size.width == 250)
        #expect(abs(size.height - 250 * 479 / 799) < 0.001)
    }

    @Test func touchscreenWithoutDirectPropertyIsRecognisedByTouchWithoutToolFinger() throws {
        var screen = try RecordedDevices.maXTouch
        screen.properties = []
        #expect(screen.kind == .touchscreen)
    }

    @Test func mouseIsRelativeWithButtons() throws {
        #expect(try RecordedDevices.mouse.kind == .mouse)
        #expect(try RecordedDevices.mouse.sizeMillimeters == nil)
    }

    @Test func penTabletIsATablet() {
        var tablet = DeviceDescription(name: "Wacom Intuos Pen")
        tablet.enable(ABS.X, AbsInfo(minimum: 0, maximum: 15200, resolution: 100))
        tablet.enable(ABS.Y, AbsInfo(minimum: 0, maximum: 9500, resolution: 100))
        tablet.enable(EV.KEY, BTN.TOOL_PEN)
        tablet.enable(EV.KEY, BTN.TOUCH)
        #expect(tablet.kind == .tablet)
    }

    @Test func absolutePointerWithAButtonIsAMouse() {
        var pointer = DeviceDescription(name: "QEMU USB Tablet")
        pointer.enable(ABS.X, AbsInfo(minimum: 0, maximum: 32767))
        pointer.enable(ABS.Y, AbsInfo(minimum: 0, maximum: 32767))
        pointer.enable(EV.KEY, BTN.LEFT)
        #expect(pointer.kind == .mouse)
    }

    @Test func keyboardIsOther() {
        var keyboard = DeviceDescription(name: "AT Translated Set 2 keyboard")
        for code in UInt16(1)...120 { keyboard.enable(EV.KEY, code) }
        #expect(keyboard.kind == .other)
    }

    @Test func semiMTDeviceIsSingleTouch() throws {
        var pad = try RecordedDevices.x1Carbon
        pad.properties.insert(INPUT_PROP.SEMI_MT)
        #expect(pad.contactProtocol == .singleTouch)
    }

    @Test func absurdSlotCountIsClamped() throws {
        var pad = try RecordedDevices.x1Carbon
        pad.absInfo[ABS.MT_SLOT] = AbsInfo(minimum: 0, maximum: Int32.max)
        #expect(pad.slotCount == DeviceDescription.maximumSlotCount)
    }
}
