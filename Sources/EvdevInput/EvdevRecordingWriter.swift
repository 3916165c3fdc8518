import Foundation

/// Writes a recording as it happens, in one of three formats: the project's
/// JSON Lines (`EvdevRecording`), `libinput record`'s YAML (version 1), or
/// evemu (`# EVEMU 1.3`), so recordings can be shared with libinput and evemu
/// tools.
///
/// libinput and evemu times are relative to the first frame; the JSON Lines
/// format keeps the kernel's absolute times. A resync after `SYN_DROPPED` is a
/// `"resynced"` flag in JSON Lines and a comment line in the other two.
///
///     var writer = EvdevRecordingWriter(format: .evemu, header: header)
///     print(writer.header, terminator: "")   // # EVEMU 1.3, N:, I:, P:, B:, A: lines
///     print(writer.text(for: line), terminator: "")   // E: 0.000000 0003 0039 0012 ...
public struct EvdevRecordingWriter: Sendable {
    /// The recording formats `gestures record` writes.
    public enum Format: String, Sendable, CaseIterable {
        /// The project's JSON Lines (`EvdevRecording`).
        case json
        /// `libinput record` YAML, version 1.
        case libinput
        /// evemu 1.3.
        case evemu
    }

    /// The format written.
    public let format: Format
    /// The recording's header (device and node).
    public let recordingHeader: EvdevRecording.Header
    private var firstTime: Int64?

    /// Creates a writer for one device.
    public init(format: Format, header: EvdevRecording.Header) {
        self.format = format
        self.recordingHeader = header
    }

    /// The text before the first frame, ending with a newline.
    public var header: String {
        switch format {
        case .json: return EvdevRecording.encode(recordingHeader) + "\n"
        case .libinput: return libinputHeader
        case .evemu: return evemuHeader
        }
    }

    /// The text of one frame, ending with a newline; times are relative to the first frame written.
    public mutating func text(for line: EvdevRecording.Line) -> String {
        let first = firstTime ?? line.frame.timeMicroseconds
        firstTime = first
        let relative = max(0, line.frame.timeMicroseconds - first)
        let (seconds, microseconds) = (relative / 1_000_000, relative % 1_000_000)
        let events = line.frame.events + [.synReport]
        switch format {
        case .json:
            return EvdevRecording.encode(line) + "\n"
        case .libinput:
            var text = line.resynced ? "  # resynced after SYN_DROPPED: the state after lost events\n" : ""
            text += "  - evdev:\n"
            for event in events {
                text += "    - [\(pad(seconds, 3)), \(pad(microseconds, 6)), \(pad(event.type, 3)), \(pad(event.code, 3)), \(pad(event.value, 6))]\n"
            }
            return text
        case .evemu:
            var text = line.resynced ? "# resynced after SYN_DROPPED: the state after lost events\n" : ""
            let time = "\(seconds).\(zeroPadded(microseconds, 6))"
            for event in events {
                text += "E: \(time) \(hex(event.type, 4)) \(hex(event.code, 4)) \(evemuValue(event.value))\n"
            }
            return text
        }
    }

    private var libinputHeader: String {
        let device = recordingHeader.device
        var text = "version: 1\nndevices: 1\ndevices:\n- node: \(recordingHeader.node)\n  evdev:\n"
        text += "    # Name: \(device.name)\n"
        text += "    name: \(yamlString(device.name))\n"
        text += "    id: [\(device.bus), \(device.vendor), \(device.product), \(device.version)]\n"
        text += "    codes:\n"
        for (type, codes) in device.codes.sorted(by: { $0.key < $1.key }) {
            text += "      \(type): [\(codes.map(String.init).joined(separator: ", "))]\n"
        }
        if !device.absinfo.isEmpty {
            text += "    absinfo:\n"
            for (code, axis) in device.absinfo.sorted(by: { $0.key < $1.key }) {
                text += "      \(code): [\(axis.minimum), \(axis.maximum), \(axis.fuzz), \(axis.flat), \(axis.resolution)]\n"
            }
        }
        text += "    properties: [\(device.properties.map(String.init).joined(separator: ", "))]\n"
        text += "  events:\n"
        return text
    }

    /// The highest code of each type, for evemu's bitmask lengths (linux/input-event-codes.h).
    private static let maxCodes: [UInt16: Int] = [0x00: 0x1f, 0x01: 0x2ff, 0x02: 0x0f, 0x03: 0x3f, 0x04: 0x07,
                                                  0x05: 0x10, 0x11: 0x0f, 0x12: 0x07, 0x14: 0x01, 0x15: 0x7f]

    private var evemuHeader: String {
        let device = recordingHeader.device
        var text = "# EVEMU 1.3\n# Input device name: \"\(device.name)\"\n"
        text += "N: \(device.name)\n"
        text += "I: \(hex(device.bus, 4)) \(hex(device.vendor, 4)) \(hex(device.product, 4)) \(hex(device.version, 4))\n"
        text += bitmaskLines(prefix: "P:", bits: device.properties.map(Int.init), maxBit: 0x1f)
        // Type 0's bitmask is the set of event types.
        var types = Set(device.codes.keys)
        types.insert(EvdevEvent.syn)
        text += bitmaskLines(prefix: "B: 00", bits: types.map(Int.init), maxBit: 0x1f)
        for (type, codes) in device.codes.sorted(by: { $0.key < $1.key }) where type != EvdevEvent.syn {
            text += bitmaskLines(prefix: "B: \(hex(type, 2))", bits: codes.map(Int.init), maxBit: Self.maxCodes[type] ?? Int(codes.max() ?? 0))
        }
        for (code, axis) in device.absinfo.sorted(by: { $0.key < $1.key }) {
            text += "A: \(hex(code, 2)) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)\n"
        }
        return text
    }

    /// Bitmask bytes, eight per line, as evemu writes them.
    private func bitmaskLines(prefix: String, bits: [Int], maxBit: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: max(8, (maxBit / 8 + 1 + 7) / 8 * 8))
        for bit in bits where bit / 8 < bytes.count { bytes[bit / 8] |= 1 << UInt8(bit % 8) }
        return stride(from: 0, to: bytes.count, by: 8).map { start in
            prefix + " " + bytes[start ..< start + 8].map { hex($0, 2) }.joined(separator: " ") + "\n"
        }.joined()
    }
}

private func hex<T: BinaryInteger>(_ value: T, _ width: Int) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

private func zeroPadded<T: BinaryInteger>(_ value: T, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

private func pad<T: BinaryInteger>(_ value: T, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: " ", count: max(0, width - digits.count)) + digits
}

/// evemu prints values with `%04d`: `0012`, `-001`.
private func evemuValue(_ value: Int32) -> String {
    value < 0 ? "-" + zeroPadded(-Int64(value), 3) : zeroPadded(value, 4)
}

private func yamlString(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
