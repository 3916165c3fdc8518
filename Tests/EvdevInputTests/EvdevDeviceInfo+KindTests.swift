import Testing
@testable import EvdevInput

/// Real device descriptions (see ../shared notes), reduced to what classification reads.
enum SampleDevices {
    static let synapticsTouchpad = EvdevDeviceInfo(
        name: "SynPS/2 Synaptics TouchPad", bus: 0x11, vendor: 0x2, product: 0x7, version: 0x1b1,
        properties: [EvdevEvent.propPointer, EvdevEvent.propButtonPad],
        codes: [EvdevEvent.key: [EvdevEvent.btnLeft, EvdevEvent.btnToolFinger, EvdevEvent.btnToolQuintTap, EvdevEvent.btnTouch,
                                 EvdevEvent.btnToolDoubleTap, EvdevEvent.btnToolTripleTap, EvdevEvent.btnToolQuadTap],
                EvdevEvent.abs: [EvdevEvent.absX, EvdevEvent.absY, EvdevEvent.absMTSlot, EvdevEvent.absMTPositionX,
                                 EvdevEvent.absMTPositionY, EvdevEvent.absMTTrackingID]],
        absinfo: [EvdevEvent.absX: .init(minimum: 1266, maximum: 5676, resolution: 45),
                  EvdevEvent.absY: .init(minimum: 1096, maximum: 4758, resolution: 68),
                  EvdevEvent.absMTSlot: .init(minimum: 0, maximum: 1),
                  EvdevEvent.absMTPositionX: .init(minimum: 1266, maximum: 5676, resolution: 45),
                  EvdevEvent.absMTPositionY: .init(minimum: 1096, maximum: 4758, resolution: 68),
                  EvdevEvent.absMTTrackingID: .init(minimum: 0, maximum: 65535)])

    static let appleTrackpad = EvdevDeviceInfo(
        name: "Apple Wireless Trackpad", bus: 0x5, vendor: 0x5ac, product: 0x30e,
        properties: [EvdevEvent.propButtonPad],
        codes: [EvdevEvent.key: [EvdevEvent.btnLeft, EvdevEvent.btnToolFinger, EvdevEvent.btnTouch],
                EvdevEvent.abs: [EvdevEvent.absX, EvdevEvent.absY, EvdevEvent.absMTSlot]],
        absinfo: [EvdevEvent.absX: .init(minimum: -2909, maximum: 3167, resolution: 46),
                  EvdevEvent.absY: .init(minimum: -2456, maximum: 2565, resolution: 45),
                  EvdevEvent.absMTSlot: .init(minimum: 0, maximum: 15)])

    static let touchscreen = EvdevDeviceInfo(
        name: "Atmel maXTouch Touchscreen", properties: [EvdevEvent.propDirect],
        codes: [EvdevEvent.key: [EvdevEvent.btnTouch],
                EvdevEvent.abs: [EvdevEvent.absX, EvdevEvent.absY, EvdevEvent.absMTSlot, EvdevEvent.absMTPositionX, EvdevEvent.absMTPositionY]],
        absinfo: [EvdevEvent.absX: .init(minimum: 0, maximum: 799), EvdevEvent.absY: .init(minimum: 0, maximum: 479),
                  EvdevEvent.absMTSlot: .init(minimum: 0, maximum: 9)])

    static let mouse = EvdevDeviceInfo(
        name: "Logitech USB Optical Mouse",
        codes: [EvdevEvent.key: [EvdevEvent.btnLeft, EvdevEvent.btnRight, EvdevEvent.btnMiddle],
                EvdevEvent.rel: [EvdevEvent.relX, EvdevEvent.relY, EvdevEvent.relWheel]])

    static let tablet = EvdevDeviceInfo(
        name: "Wacom Intuos Pen",
        codes: [EvdevEvent.key: [EvdevEvent.btnToolPen, EvdevEvent.btnStylus, EvdevEvent.btnTouch],
                EvdevEvent.abs: [EvdevEvent.absX, EvdevEvent.absY, EvdevEvent.absPressure]])

    static let keyboard = EvdevDeviceInfo(name: "AT Translated Set 2 keyboard", codes: [EvdevEvent.key: Array(1...120)])
}

@Suite struct EvdevDeviceInfoKindTests {
    @Test(arguments: [
        (SampleDevices.synapticsTouchpad, EvdevDeviceInfo.Kind.touchpad),
        (SampleDevices.appleTrackpad, .touchpad),
        (SampleDevices.touchscreen, .touchscreen),
        (SampleDevices.mouse, .mouse),
        (SampleDevices.tablet, .tablet),
        (SampleDevices.keyboard, .other),
    ])
    func kindIsClassifiedFromPropertiesAndCodes(device: EvdevDeviceInfo, expected: EvdevDeviceInfo.Kind) {
        #expect(device.kind == expected)
    }

    @Test func directPropertyWinsOverFingerToolOnTouchscreens() {
        var screen = SampleDevices.touchscreen
        screen.codes[EvdevEvent.key]!.append(EvdevEvent.btnToolFinger)
        #expect(screen.kind == .touchscreen)
    }

    @Test func absolutePointerWithButtonsIsAMouse() {
        let vmTablet = EvdevDeviceInfo(name: "QEMU USB Tablet",
                                       codes: [EvdevEvent.key: [EvdevEvent.btnLeft], EvdevEvent.abs: [EvdevEvent.absX, EvdevEvent.absY]])
        #expect(vmTablet.kind == .mouse)
    }

    @Test func sizeInMillimetersComesFromRangeAndResolution() throws {
        let pad = SampleDevices.synapticsTouchpad
        #expect(try #require(pad.widthMillimeters) == 98.0)
        #expect(abs(try #require(pad.heightMillimeters) - 53.85) < 0.01)
        #expect(pad.slotCount == 2)
    }

    @Test func sizeIsUnknownWithoutResolution() {
        #expect(SampleDevices.touchscreen.widthMillimeters == nil)
        #expect(SampleDevices.touchscreen.slotCount == 10)
        #expect(SampleDevices.mouse.slotCount == nil)
    }
}
