/// One kernel input event: what `read(2)` on `/dev/input/eventN` returns, as
/// `struct input_event`, with the time folded into microseconds.
///
/// Sixteen bytes, no references: arrays of events are dense and copying one is
/// free. Codes are the kernel's numbers (see ``EV``, ``SYN``, ``ABS``, ``BTN``).
///
/// ```swift
/// let touch = InputEvent(type: EV.ABS, code: ABS.MT_POSITION_X, value: 1200, microseconds: 16_000)
/// print(touch)  // 0.016000 EV_ABS 0x35 1200
/// ```
@frozen
public struct InputEvent: Hashable, Sendable {
    /// The event time in microseconds (`tv_sec * 1_000_000 + tv_usec`).
    ///
    /// Recordings keep whatever clock they were made with: absolute epoch
    /// times in old evemu files, times relative to the first event elsewhere.
    public var microseconds: Int64
    /// The event type, `EV_*`.
    public var type: UInt16
    /// The event code within its type (`ABS_MT_SLOT`, `BTN_LEFT`, ...).
    public var code: UInt16
    /// The value: a coordinate, 0/1/2 for keys, a tracking id, a delta.
    public var value: Int32

    @inlinable
    public init(type: UInt16, code: UInt16, value: Int32, microseconds: Int64) {
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// Whether this is the SYN_REPORT that closes a frame.
    @inlinable
    public var isSynReport: Bool { type == EV.SYN && code == SYN.REPORT }

    /// The whole seconds of ``microseconds``, as `tv_sec` (floored, so negative
    /// times stay consistent). Defined for every time, `Int64.min` included.
    @inlinable
    public var seconds: Int64 {
        let quotient = microseconds / 1_000_000
        return microseconds % 1_000_000 < 0 ? quotient - 1 : quotient
    }

    /// The microseconds past ``seconds``, as `tv_usec` (0 ..< 1_000_000).
    @inlinable
    public var microsecondsPart: Int64 {
        let remainder = microseconds % 1_000_000
        return remainder < 0 ? remainder + 1_000_000 : remainder
    }
}

extension InputEvent: CustomStringConvertible {
    public var description: String {
        let usec = String(microsecondsPart)
        let padded = String(repeating: "0", count: 6 - usec.count) + usec
        return "\(seconds).\(padded) \(EV.name(type)) 0x\(String(code, radix: 16)) \(value)"
    }
}
