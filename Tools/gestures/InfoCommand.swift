import CommandLineKit
import Foundation
import GestureTraces
import TouchInput

/// `gestures info TRACE`: what a recording holds.
enum InfoCommand: Command {
    static let name = "info"
    static let abstract = "Show the devices, duration, frames, contacts and finger counts of a trace."
    static let discussion = """
        TRACE is a gestures JSON trace, a libinput record YAML file or an evemu
        recording (events without a device description take it from --desc,
        else from the .desc beside them with the longest matching name).
        Contacts and finger counts come from the same multitouch decoder live
        devices use.
        """
    static let format = OutputFormat.option(default: .text)
    static let frames = Flag("--frames", help: "Also print every decoded touch frame (text only).")
    static let options = [format.spec, frames.spec, RecordingFile.descOption.spec]
    static let arguments = [ArgumentSpec("TRACE", kind: .file, help: "A recording: JSON trace, libinput record YAML or evemu.")]

    /// The trace and what to print.
    struct Options {
        var path: String
        var format: OutputFormat
        var printsFrames: Bool
        var description: String?
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(
            path: arguments.positionals[0], format: arguments[format], printsFrames: arguments[frames],
            description: arguments[RecordingFile.descOption])
    }

    static func run(_ options: Options) throws -> Int32 {
        try RecordingFile.checkDescription(options.description)
        let trace = try RecordingFile.load(options.path, description: options.description, options: Self.options)
        let summary = trace.summary()
        print(options.format == .json ? json(summary) : text(summary), terminator: "")
        if options.printsFrames && options.format == .text { printFrames(trace) }
        return 0
    }

    /// One line per touch frame: time, fingers, buttons, contacts as id@(x, y) in mm.
    private static func printFrames(_ trace: Trace) {
        var decoders = trace.devices.map { MultitouchDecoder(device: $0) }
        let start = trace.frames.first?.events.first?.microseconds ?? 0
        func show(_ frame: TouchFrame, _ device: Int) {
            var line = String(
                format: "%8.3f d%d fingers %d", EventTime.seconds(from: start, to: frame.microseconds), device, frame.fingerCount)
            if !frame.buttons.isEmpty { line += " buttons 0x" + String(frame.buttons.rawValue, radix: 16) }
            for contact in frame.contacts {
                line += String(format: " %d@(%.1f, %.1f)", contact.id, contact.position.x, contact.position.y)
            }
            if frame.discardedJumps > 0 { line += " jump discarded" }
            print(line)
        }
        for frame in trace.frames {
            for event in frame.events {
                if let touchFrame = decoders[frame.device].process(event) { show(touchFrame, frame.device) }
            }
        }
        for index in decoders.indices {
            if let last = decoders[index].finish() { show(last, index) }
        }
    }

    private static func millimeters(_ value: Double?) -> String {
        value.map { String(format: "%.1f", $0) } ?? "-"
    }

    static func text(_ summary: TraceSummary) -> String {
        var out = "duration: \(String(format: "%.3f", Double(summary.durationMicroseconds) / 1e6)) s\n"
        out += "frames: \(summary.frames)\nevents: \(summary.events)\n"
        for (index, device) in summary.devices.enumerated() {
            out += "device \(index): \(device.name)\n"
            out += "  kind: \(device.kind), protocol: \(device.contactProtocol.rawValue), slots: \(device.slotCount)\n"
            out += "  size: \(millimeters(device.widthMillimeters)) x \(millimeters(device.heightMillimeters)) mm"
            out += device.hasResolution ? "\n" : " (no resolution: assumed)\n"
            out += "  frames: \(device.frames), events: \(device.events)\n"
            out += "  contacts: \(device.contacts), most at once: \(device.maximumContacts), max fingers: \(device.maximumFingers)\n"
            if device.discardedJumps > 0 { out += "  discarded jumps: \(device.discardedJumps)\n" }
        }
        return out
    }

    static func json(_ summary: TraceSummary) -> String {
        // JSON has no NaN or infinity: such a size (a device with a zero range) prints as null.
        func number(_ value: Double?) -> Any { value.flatMap { $0.isFinite ? ($0 * 10).rounded() / 10 : nil } ?? NSNull() }
        let devices: [[String: Any]] = summary.devices.map { device in
            [
                "name": device.name, "kind": device.kind.rawValue, "protocol": device.contactProtocol.rawValue,
                "slots": device.slotCount, "widthMillimeters": number(device.widthMillimeters),
                "heightMillimeters": number(device.heightMillimeters), "hasResolution": device.hasResolution,
                "frames": device.frames, "events": device.events, "contacts": device.contacts,
                "maximumContacts": device.maximumContacts, "maximumFingers": device.maximumFingers,
                "discardedJumps": device.discardedJumps,
            ]
        }
        let object: [String: Any] = [
            "durationSeconds": Double(summary.durationMicroseconds) / 1e6, "frames": summary.frames,
            "events": summary.events, "devices": devices,
        ]
        // Only strings, integers, finite numbers and nulls above: serialisation cannot fail.
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
