import GestureRecognition

/// Turns the kernel events of one device into touch frames: contacts with
/// stable ids and positions in millimetres, the finger count, buttons and
/// relative motion.
///
/// The same decoder serves live devices and recorded traces, so replaying a
/// recording exercises exactly the code a live touchpad does. It handles
/// - protocol B (slots and tracking ids) and protocol A (SYN_MT_REPORT,
///   contacts matched to the previous frame by tracking id, else by nearest
///   position),
/// - finger counts from BTN_TOOL_FINGER ... QUINTTAP, including more fingers
///   than slots; semi-MT devices are single-touch plus BTN_TOOL_*, as libinput
///   treats them,
/// - touchscreens (finger count from contacts only, BTN_TOOL_* ignored),
/// - devices without resolution (see ``DeviceDescription/positionScale(multitouch:)``),
/// - absurd jumps on touchpads (``jumpThresholdMillimeters``): the sample is
///   discarded and the contact keeps its last position; a second sample near
///   the discarded one is taken as real motion,
/// - malformed streams: unknown codes are ignored, slot numbers out of range
///   select no slot, SYN_DROPPED discards events up to the next SYN_REPORT,
///   and ``finish()`` closes a trailing frame without SYN_REPORT.
///
/// ```swift
/// var decoder = MultitouchDecoder(device: description)
/// for event in events {
///     if let frame = decoder.process(event) { engine.process(frame) }
/// }
/// if let last = decoder.finish() { engine.process(last) }
/// ```
///
/// - Complexity: O(1) per event, O(slots) per SYN_REPORT; no allocation after
///   the first frames as long as callers do not keep the frames they get
///   (the frame's contact buffer is reused; a kept frame is copied on write).
public struct MultitouchDecoder: Sendable {
    /// A contact that moves farther than this within 12 ms is a kernel jump (libinput's threshold).
    public static let jumpThresholdMillimeters = 20.0 /* mm per 12 ms */
    /// The frame interval libinput normalises jump distances to.
    public static let jumpReferenceMicroseconds: Int64 = 12_000 /* 12 ms */
    /// Frames farther apart than this are irregular; no jump is detected across them (as libinput).
    public static let jumpMaximumIntervalMicroseconds: Int64 = 30_000 /* 30 ms */
    /// The most contacts kept per frame on protocol A devices.
    public static let maximumAnonymousContacts = 16

    /// When a touchpad contact counts as a palm or resting thumb, beside the
    /// device saying so with `MT_TOOL_PALM`. A contact once a palm stays one
    /// until it lifts (as libinput), so a palm that eases off does not turn
    /// into a finger mid-gesture.
    public struct PalmDetection: Hashable, Sendable {
        /// `ABS_MT_PRESSURE` above this fraction of the axis' own range marks
        /// a palm, on touchpads that report pressure; nil turns it off. The
        /// default, 130/255 (51 %), is libinput's default threshold, 130, on
        /// the 0-255 range of every pad it was chosen on; a fraction keeps it
        /// where it was meant on a pad with another range (the Logitech
        /// touchpads report 0-50, which 130 never reaches).
        public var pressureFraction: Double?
        /// `ABS_MT_TOUCH_MAJOR` above this (device units) marks a palm; nil
        /// (the default, as libinput without a device quirk) turns it off.
        public var touchMajorThreshold: Int32?

        public init(pressureFraction: Double? = 130.0 / 255.0, touchMajorThreshold: Int32? = nil) {
            self.pressureFraction = pressureFraction
            self.touchMajorThreshold = touchMajorThreshold
        }

        /// The `ABS_MT_PRESSURE` above which a contact of `device` is a palm:
        /// ``pressureFraction`` of the axis' range from its minimum, rounded
        /// (130 on 0-255); nil when off or without the axis.
        public func pressureThreshold(on device: DeviceDescription) -> Int32? {
            guard let pressureFraction, let axis = device.absInfo[ABS.MT_PRESSURE], axis.maximum > axis.minimum else { return nil }
            let range = Double(axis.maximum) - Double(axis.minimum)
            return Int32(clamping: Int64((Double(axis.minimum) + pressureFraction * range).rounded()))
        }
    }

    /// The device the events come from.
    public let device: DeviceDescription

    private let contactProtocol: DeviceDescription.ContactProtocol
    private let converter: ContactConverter
    private let hasTouchKey: Bool
    /// Touchscreens count their contacts only: their BTN_TOOL_* keys are not
    /// finger counts (the N-Trig sends BTN_TOOL_DOUBLETAP with one touch), and
    /// libinput ignores them too.
    private let countsToolKeys: Bool
    /// Semi-MT pads: BTN_TOOL_* without BTN_TOUCH is a finger hovering,
    /// though the one position is there (see `closeFrame`).
    private let hoversWithoutTouchKey: Bool

    /// Protocol B slots; protocol A: the previous frame's contacts.
    private var slots: [Slot]
    /// Protocol A: the contacts reported in the current frame.
    private var reported: [Slot]
    private var reportedCount = 0
    private var previousCount = 0
    private var sawMTReport = false
    /// Protocol A: the contact being reported; single-touch: the one contact.
    private var single = Slot()
    private var currentSlot = 0
    /// Protocol B: the slot the events change now, held apart from `slots`
    /// (written back when the events move to another slot and when the
    /// frame closes), so that an event sets one field instead of going
    /// through the array.
    private var staged = Slot()
    /// The index in `slots` that `staged` stands for, or -1.
    private var stagedIndex = -1
    private var nextContactID = 0
    private var toolKeys: UInt8 = 0
    /// BTN_TOUCH's state, nil until the device sends it.
    private var touchKey: Bool?
    private var buttons: Buttons = []
    private var dropping = false
    private var hasPendingEvents = false
    private var lastEventTime: Int64 = 0
    private var frame = TouchFrame()
    /// The contacts of the frame being closed, written over the previous
    /// frame's in `frame.contacts` (no reallocation, no clearing).
    private var contactCount = 0

    /// Creates a decoder for the events of `device`; `palmDetection` applies
    /// to touchpads only (a palm on a touchscreen is the device's call).
    public init(device: DeviceDescription, palmDetection: PalmDetection = PalmDetection()) {
        self.device = device
        contactProtocol = device.contactProtocol
        let multitouch = contactProtocol == .slots || contactProtocol == .anonymous
        converter = ContactConverter(
            scale: device.positionScale(multitouch: multitouch)
                ?? PositionScale(minimumX: 0, minimumY: 0, rangeX: 1, rangeY: 1, unitsPerMillimeterX: 1, unitsPerMillimeterY: 1),
            detectsJumps: device.kind == .touchpad,
            reportsPressure: multitouch ? device.supports(EV.ABS, ABS.MT_PRESSURE) : device.supports(EV.ABS, ABS.PRESSURE),
            reportsMajor: multitouch && device.supports(EV.ABS, ABS.MT_TOUCH_MAJOR),
            reportsMinor: multitouch && device.supports(EV.ABS, ABS.MT_TOUCH_MINOR),
            palmPressure: device.kind == .touchpad && multitouch && device.supports(EV.ABS, ABS.MT_PRESSURE)
                ? palmDetection.pressureThreshold(on: device) : nil,
            palmTouchMajor: device.kind == .touchpad && multitouch && device.supports(EV.ABS, ABS.MT_TOUCH_MAJOR)
                ? palmDetection.touchMajorThreshold : nil)
        hasTouchKey = device.supports(EV.KEY, BTN.TOUCH)
        countsToolKeys = device.kind != .touchscreen
        hoversWithoutTouchKey = device.isSemiMT && device.kind == .touchpad
        switch contactProtocol {
        case .slots:
            slots = Array(repeating: Slot(), count: max(device.slotCount, 1))
            reported = []
            if let initial = device.absInfo[ABS.MT_SLOT], initial.minimum > 0 { currentSlot = -1 }
        case .anonymous:
            slots = Array(repeating: Slot(), count: Self.maximumAnonymousContacts)
            reported = Array(repeating: Slot(), count: Self.maximumAnonymousContacts)
        case .singleTouch, .none:
            slots = []
            reported = []
        }
        frame.contacts.reserveCapacity(max(slots.count, 1))
    }

    /// Feeds one event; returns the frame it closes (at SYN_REPORT), else nil.
    @inlinable
    public mutating func process(_ event: InputEvent) -> TouchFrame? {
        if event.type == EV.SYN && event.code == SYN.REPORT {
            return closeFrame(at: event.microseconds)
        }
        apply(event)
        return nil
    }

    /// Closes a trailing frame that has events but no SYN_REPORT (a recording
    /// cut short); nil when the last event was a SYN_REPORT.
    public mutating func finish() -> TouchFrame? {
        guard hasPendingEvents else { return nil }
        dropping = false
        return closeFrame(at: lastEventTime)
    }

    /// Takes the device's state when reading starts, and again after a resync: the
    /// kernel drops an absolute event equal to the value it last reported, so a reader
    /// that opens a device already in use would otherwise decode the next frames
    /// without the contacts, positions and keys set before it opened.
    /// `value(type, code, slot)` is the device's value of `code` (in `slot` for
    /// `ABS_MT_*` codes, else slot -1); `currentSlot` is the slot it reports next.
    /// No frame is closed: the next `SYN_REPORT` closes one with the seeded state.
    ///
    ///     decoder.seed(currentSlot: state.currentSlot, value: state.value(type:code:slot:))   // EvdevState
    public mutating func seed(currentSlot: Int32, value: (_ type: UInt16, _ code: UInt16, _ slot: Int32) -> Int32) {
        let (wasDropping, pending, time) = (dropping, hasPendingEvents, lastEventTime)
        dropping = false
        for code in (device.codes[EV.KEY] ?? []).sorted() { applyKey(code, value(EV.KEY, code, -1)) }
        switch contactProtocol {
        case .slots:
            let codes =
                [ABS.MT_TRACKING_ID]
                + (ABS.MT_TOUCH_MAJOR...ABS.MT_PRESSURE).filter {
                    $0 != ABS.MT_TRACKING_ID && $0 != ABS.MT_SLOT && device.supports(EV.ABS, $0)
                }
            for slot in slots.indices {
                self.currentSlot = slot
                for code in codes { applyAbsolute(code, value(EV.ABS, code, Int32(slot))) }
            }
            applyAbsolute(ABS.MT_SLOT, currentSlot)
        case .singleTouch:
            for code in [ABS.X, ABS.Y, ABS.PRESSURE] where device.supports(EV.ABS, code) {
                applyAbsolute(code, value(EV.ABS, code, -1))
            }
        case .anonymous, .none:
            break  // protocol A repeats every contact in every frame
        }
        (dropping, hasPendingEvents, lastEventTime) = (wasDropping, pending, time)
    }

    @usableFromInline
    mutating func apply(_ event: InputEvent) {
        lastEventTime = event.microseconds
        hasPendingEvents = true
        if dropping { return }
        switch event.type {
        case EV.ABS:
            applyAbsolute(event.code, event.value)
        case EV.KEY:
            applyKey(event.code, event.value)
        case EV.REL:
            switch event.code {
            case REL.X: frame.relativeX &+= event.value
            case REL.Y: frame.relativeY &+= event.value
            case REL.WHEEL: frame.wheel &+= event.value
            case REL.HWHEEL: frame.horizontalWheel &+= event.value
            default: break
            }
        case EV.SYN:
            if event.code == SYN.MT_REPORT {
                closeAnonymousContact()
            } else if event.code == SYN.DROPPED {
                dropping = true
                frame.followsDroppedEvents = true
            }
        default:
            break
        }
    }

    private mutating func applyKey(_ code: UInt16, _ value: Int32) {
        let down = value != 0
        var toolBit: UInt8 = 0
        switch code {
        case BTN.TOUCH: touchKey = down; return
        case BTN.TOOL_FINGER: toolBit = 1 << 0
        case BTN.TOOL_DOUBLETAP: toolBit = 1 << 1
        case BTN.TOOL_TRIPLETAP: toolBit = 1 << 2
        case BTN.TOOL_QUADTAP: toolBit = 1 << 3
        case BTN.TOOL_QUINTTAP: toolBit = 1 << 4
        default:
            if let button = Buttons(code: code) {
                if down { buttons.insert(button) } else { buttons.remove(button) }
            }
            return
        }
        if down { toolKeys |= toolBit } else { toolKeys &= ~toolBit }
    }

    private mutating func applyAbsolute(_ code: UInt16, _ value: Int32) {
        switch contactProtocol {
        case .slots:
            if code == ABS.MT_SLOT {
                currentSlot = value >= 0 && Int(value) < slots.count ? Int(value) : -1
                return
            }
            guard code >= ABS.MT_TOUCH_MAJOR && code <= ABS.MT_PRESSURE, currentSlot >= 0 else { return }
            if stagedIndex != currentSlot { stage(currentSlot) }
            if code == ABS.MT_TRACKING_ID {
                if value < 0 || value != staged.trackingID {
                    staged.contactID = -1  // a new touch, or none
                }
                staged.trackingID = value < 0 ? -1 : value
            } else {
                staged.set(code, value)
            }
        case .anonymous:
            single.set(code, value)
        case .singleTouch:
            switch code {
            case ABS.X: single.x = value; single.hasX = true
            case ABS.Y: single.y = value; single.hasY = true
            case ABS.PRESSURE: single.pressure = value
            default: break
            }
        case .none:
            break
        }
    }

    private mutating func closeAnonymousContact() {
        guard contactProtocol == .anonymous else { return }
        sawMTReport = true
        if single.hasX && single.hasY && reportedCount < reported.count {
            reported[reportedCount] = single
            reported[reportedCount].contactID = -1
            reportedCount += 1
        }
        single = Slot()
    }

    @usableFromInline
    mutating func closeFrame(at time: Int64) -> TouchFrame {
        contactCount = 0
        frame.microseconds = time
        var active = 0
        switch contactProtocol {
        case .slots: active = collectSlots(at: time)
        case .anonymous: active = collectAnonymous(at: time)
        case .singleTouch: active = collectSingleTouch(at: time)
        case .none: break
        }
        var toolFingers = Int(UInt8.bitWidth - toolKeys.leadingZeroBitCount)
        if countsToolKeys && touchKey == false && ((contactProtocol == .slots && active == 0) || hoversWithoutTouchKey) {
            // BTN_TOOL_* without BTN_TOUCH, and no contact in a slot (or a
            // semi-MT pad, whose one position is there while a finger
            // hovers): a finger hovering over the pad, not touching it, as
            // libinput reads it. Synaptics pads report it so: BTN_TOOL_FINGER
            // from a pressure above 0, BTN_TOUCH from 30 until under 25, so
            // a finger approaching before a tap and leaving after it, or
            // hovering between the two touches of a tap-and-a-half, has a
            // position without touching. A pad that has not sent BTN_TOUCH
            // yet (a recording that starts with fingers down) is not hovering.
            // Plain single-touch pads (the xorg-integration-tests Synaptics)
            // keep counting such frames: see Docs/GestureEngine.md, "Hover".
            contactCount = 0
            toolFingers = 0
            active = 0
        }
        if frame.contacts.count > contactCount { frame.contacts.removeLast(frame.contacts.count - contactCount) }
        frame.fingerCount = countsToolKeys ? max(toolFingers, active) : active
        frame.buttons = buttons
        frame.isTouching = touchKey == true || active > 0
        let result = frame
        frame.relativeX = 0
        frame.relativeY = 0
        frame.wheel = 0
        frame.horizontalWheel = 0
        frame.followsDroppedEvents = false
        frame.discardedJumps = 0
        dropping = false
        hasPendingEvents = false
        return result
    }

    /// Writes `contact` as the next contact of the frame being closed.
    private mutating func put(_ contact: Contact) {
        if contactCount < frame.contacts.count {
            frame.contacts[contactCount] = contact
        } else {
            frame.contacts.append(contact)
        }
        contactCount += 1
    }

    /// Makes `staged` stand for `slots[index]`, writing back the slot it stood for.
    private mutating func stage(_ index: Int) {
        unstage()
        staged = slots[index]
        stagedIndex = index
    }

    /// Writes `staged` back to the slot it stands for, if any.
    private mutating func unstage() {
        guard stagedIndex >= 0 else { return }
        slots[stagedIndex] = staged
        stagedIndex = -1
    }

    private mutating func collectSlots(at time: Int64) -> Int {
        unstage()
        var active = 0
        for index in slots.indices where slots[index].trackingID >= 0 {
            active += 1
            guard slots[index].hasX && slots[index].hasY else { continue }
            if slots[index].contactID < 0 {
                slots[index].contactID = nextContactID
                nextContactID += 1
            }
            put(converter.contact(from: &slots[index], slot: index, at: time, discardedJumps: &frame.discardedJumps))
        }
        return active
    }

    private mutating func collectAnonymous(at time: Int64) -> Int {
        if !sawMTReport && (touchKey == true || toolKeys != 0) {
            // The driver sent no contacts this frame but a touch is still down:
            // keep the last frame's contacts (protocol A allows omitting them).
            for index in 0..<previousCount {
                put(converter.contact(from: &slots[index], slot: -1, at: time, discardedJumps: &frame.discardedJumps))
            }
            return previousCount
        }
        // Match reported contacts to the previous frame's: same tracking id
        // first, then the closest pair within the jump threshold, repeatedly.
        var previousTaken: UInt32 = 0
        var reportedTaken: UInt32 = 0
        var match = (0..<Self.maximumAnonymousContacts).map { _ in -1 }
        for index in 0..<reportedCount where reported[index].trackingID >= 0 {
            for candidate in 0..<previousCount
            where previousTaken & (1 << UInt32(candidate)) == 0
                && slots[candidate].trackingID == reported[index].trackingID
            {
                match[index] = candidate
                previousTaken |= 1 << UInt32(candidate)
                reportedTaken |= 1 << UInt32(index)
                break
            }
        }
        while true {
            var best = (reported: -1, previous: -1, distance: Self.jumpThresholdMillimeters)
            for index in 0..<reportedCount where reportedTaken & (1 << UInt32(index)) == 0 && reported[index].trackingID < 0 {
                let position = converter.scale.millimeters(x: reported[index].x, y: reported[index].y)
                for candidate in 0..<previousCount
                where previousTaken & (1 << UInt32(candidate)) == 0
                    && slots[candidate].trackingID < 0
                {
                    let distance = position.distance(to: slots[candidate].position)
                    if distance <= best.distance { best = (index, candidate, distance) }
                }
            }
            guard best.reported >= 0 else { break }
            match[best.reported] = best.previous
            previousTaken |= 1 << UInt32(best.previous)
            reportedTaken |= 1 << UInt32(best.reported)
        }
        for index in 0..<reportedCount {
            var contact = reported[index]
            if match[index] >= 0 {
                let old = slots[match[index]]
                contact.contactID = old.contactID
                contact.position = old.position
                contact.lastTime = old.lastTime
                contact.rejected = old.rejected
                contact.hasRejected = old.hasRejected
                contact.isFresh = false
            } else {
                contact.contactID = nextContactID
                nextContactID += 1
            }
            reported[index] = contact
        }
        for index in 0..<reportedCount {
            slots[index] = reported[index]
            put(converter.contact(from: &slots[index], slot: -1, at: time, discardedJumps: &frame.discardedJumps))
        }
        previousCount = reportedCount
        reportedCount = 0
        sawMTReport = false
        return previousCount
    }

    private mutating func collectSingleTouch(at time: Int64) -> Int {
        // On a semi-MT pad, BTN_TOUCH up with BTN_TOOL_* down is a finger hovering (see closeFrame).
        let hovering = hoversWithoutTouchKey && touchKey == false
        let down = touchKey == true || (toolKeys != 0 && !hovering) || (!hasTouchKey && single.pressure > 0)
        guard down && single.hasX && single.hasY else {
            single.contactID = -1
            return 0
        }
        if single.contactID < 0 {
            single.contactID = nextContactID
            nextContactID += 1
        }
        put(converter.contact(from: &single, slot: -1, at: time, discardedJumps: &frame.discardedJumps))
        return 1
    }

}

/// Converts slots to contacts: millimetres, jump detection, optional fields.
struct ContactConverter: Sendable {
    var scale: PositionScale
    var detectsJumps: Bool
    var reportsPressure: Bool
    var reportsMajor: Bool
    var reportsMinor: Bool
    /// Pressure above which a contact is a palm, if detected by pressure.
    var palmPressure: Int32?
    /// Touch major above which a contact is a palm, if detected by size.
    var palmTouchMajor: Int32?

    /// The contact for `slot`, after jump detection (which may keep the last position).
    @inline(__always)
    func contact(from slot: inout Slot, slot index: Int, at time: Int64, discardedJumps: inout Int) -> Contact {
        let position = scale.millimeters(x: slot.x, y: slot.y)
        if slot.isFresh {
            slot.isFresh = false
            slot.accept(position, at: time)
        } else if !detectsJumps || !isJump(from: slot, to: position, at: time) {
            slot.accept(position, at: time)
        } else if slot.hasRejected && slot.rejected.distance(to: position) <= MultitouchDecoder.jumpThresholdMillimeters {
            slot.accept(position, at: time)  // the finger really is there now
        } else {
            slot.rejected = position
            slot.hasRejected = true
            discardedJumps += 1
        }
        if !slot.isPalm {
            slot.isPalm =
                slot.toolType == MT_TOOL.PALM
                || palmPressure.map { slot.pressure > $0 } == true
                || palmTouchMajor.map { slot.major > $0 } == true
        }
        return Contact(
            id: slot.contactID,
            slot: index,
            position: slot.position,
            pressure: reportsPressure ? slot.pressure : nil,
            touchMajor: reportsMajor ? slot.major : nil,
            touchMinor: reportsMinor ? slot.minor : nil,
            isPalm: slot.isPalm)
    }

    private func isJump(from slot: Slot, to position: Point, at time: Int64) -> Bool {
        let interval = EventTime.microseconds(from: slot.lastTime, to: time)
        guard interval > 0 && interval <= MultitouchDecoder.jumpMaximumIntervalMicroseconds else { return false }
        let normalised =
            position.distance(to: slot.position)
            * Double(MultitouchDecoder.jumpReferenceMicroseconds) / Double(interval)
        return normalised > MultitouchDecoder.jumpThresholdMillimeters
    }
}

/// The state of one contact in device units, and its last accepted position.
struct Slot: Sendable {
    var trackingID: Int32 = -1
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = 0
    var major: Int32 = 0
    var minor: Int32 = 0
    var toolType: Int32 = 0
    var hasX = false
    var hasY = false
    var hasRejected = false
    /// The decoder's id for the touch in this slot, -1 when there is none yet.
    var contactID = -1 {
        didSet { if contactID != oldValue { isFresh = true; isPalm = false } }
    }
    /// Whether this touch has been a palm since it landed (sticky).
    var isPalm = false
    var isFresh = true
    var position = Point.zero
    var lastTime = Int64.min
    var rejected = Point.zero

    @inline(__always)
    mutating func set(_ code: UInt16, _ value: Int32) {
        switch code {
        case ABS.MT_POSITION_X: x = value; hasX = true
        case ABS.MT_POSITION_Y: y = value; hasY = true
        case ABS.MT_PRESSURE: pressure = value
        case ABS.MT_TOUCH_MAJOR: major = value
        case ABS.MT_TOUCH_MINOR: minor = value
        case ABS.MT_TOOL_TYPE: toolType = value
        case ABS.MT_TRACKING_ID: trackingID = value < 0 ? -1 : value
        default: break
        }
    }

    @inline(__always)
    mutating func accept(_ point: Point, at time: Int64) {
        position = point
        lastTime = time
        hasRejected = false
    }
}
