import CommandLineKit
import EvdevInput
import Foundation
import TouchInput

/// `gestures devices`: lists the input devices with their kind, size and slots.
enum DevicesCommand: Command {
    static let name = "devices"
    static let abstract = "List input devices: kind, name, node, size in mm, slots, resolution."
    static let discussion = """
        Reads every /dev/input/event* node. Without read access to them, says how to get it
        (the `input` group, or the udev rule in Tools/70-gestures.rules) and exits with status 1.
        """
    static let format = OutputFormat.option(default: .text)
    static let options = [format.spec, InputDevices.directoryOption.spec]

    /// The output and where the nodes are.
    struct Options {
        var format: OutputFormat
        var directory: String
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(format: arguments[format], directory: arguments[InputDevices.directoryOption])
    }

    /// One listed device, as printed in JSON.
    struct Entry: Encodable {
        var node: String
        var kind: String
        var name: String
        var bus: UInt16
        var vendor: UInt16
        var product: UInt16
        var widthMillimeters: Double?
        var heightMillimeters: Double?
        var slots: Int?
        var resolutionX: Int32?
        var resolutionY: Int32?
    }

    static func run(_ options: Options) throws -> Int32 {
        let (format, directory) = (options.format, options.directory)
        let (devices, errors) = InputDevices.openAll(in: directory)
        let denied = errors.first { if case .permissionDenied = $0 { true } else { false } }
        if devices.isEmpty {
            if let denied { throw CommandFailure(denied.description) }
            if format == .json { print("[]") } else { print(InputDevices.noDevices(in: directory)) }
            return 0
        }
        let entries = devices.map { device in
            let info = device.description
            // The size only when the axes give a resolution (no fallback guess here).
            let x = info.absInfo[ABS.X] ?? info.absInfo[ABS.MT_POSITION_X]
            let y = info.absInfo[ABS.Y] ?? info.absInfo[ABS.MT_POSITION_Y]
            return Entry(
                node: device.path, kind: info.kind.rawValue, name: info.name,
                bus: info.id.bus, vendor: info.id.vendor, product: info.id.product,
                widthMillimeters: x?.rangeMillimeters.map(rounded), heightMillimeters: y?.rangeMillimeters.map(rounded),
                slots: info.slotCount > 0 ? info.slotCount : nil,
                resolutionX: x.flatMap { $0.resolution > 0 ? $0.resolution : nil },
                resolutionY: y.flatMap { $0.resolution > 0 ? $0.resolution : nil })
        }
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(entries), as: UTF8.self))
        } else {
            print(table(entries), terminator: "")
        }
        if let denied {
            printError("gestures devices: some devices could not be read. \(denied.description)")
            return 1
        }
        return 0
    }

    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    private static func table(_ entries: [Entry]) -> String {
        let header = ["NODE", "KIND", "SIZE (mm)", "SLOTS", "RES (u/mm)", "NAME"]
        let rows = entries.map { entry -> [String] in
            let size =
                entry.widthMillimeters.map { w in
                    "\(formatted(w)) x \(entry.heightMillimeters.map(formatted) ?? "?")"
                } ?? "-"
            let resolution = entry.resolutionX.map { "\($0) x \(entry.resolutionY.map(String.init) ?? "?")" } ?? "-"
            return [entry.node, entry.kind, size, entry.slots.map(String.init) ?? "-", resolution, entry.name]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max()! }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
            }.joined()
        }.joined(separator: "\n") + "\n"
    }

    private static func formatted(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
