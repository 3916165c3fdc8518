import CommandLineKit
import EvdevInput
import Foundation

/// Finding and opening the event nodes the live-input subcommands read.
enum InputDevices {
    /// The directory holding the event nodes.
    static let defaultDirectory = "/dev/input"

    /// `--dir DIR`: where the event nodes are, for tests and containers.
    static let directoryOption = Option(
        "--dir", valueName: "DIR", .directory, default: defaultDirectory,
        help: "The directory of event nodes.")

    /// The one sentence for a `directory` with no event node (missing, or
    /// empty), as every command that reads devices says it.
    static func noDevices(in directory: String) -> String {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) && isFolder.boolValue
        return EvdevError.noInputDevices(directory: directory, exists: exists).description
    }

    /// The `eventN` nodes in `directory`, in numeric order.
    static func eventNodes(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("event") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { directory + "/" + $0 }
    }

    /// Opens every node; returns the devices and the errors of the nodes that failed.
    static func openAll(in directory: String) -> (devices: [EvdevDevice], errors: [EvdevError]) {
        var devices: [EvdevDevice] = []
        var errors: [EvdevError] = []
        for node in eventNodes(in: directory) {
            do { devices.append(try EvdevDevice(path: node)) } catch { errors.append(error) }
        }
        return (devices, errors)
    }

    /// The device `choice` names (a node path, `eventN`, or part of a device name),
    /// or without a choice the first touchpad, else the first touchscreen.
    static func choose(_ choice: String?, in directory: String) throws -> EvdevDevice {
        if let choice, choice.hasPrefix("/") || (choice.hasPrefix("event") && Int(choice.dropFirst(5)) != nil) {
            let path = choice.hasPrefix("/") ? choice : directory + "/" + choice
            do { return try EvdevDevice(path: path) } catch { throw CommandFailure(error.description) }
        }
        let (devices, errors) = openAll(in: directory)
        if let choice {
            if let device = devices.first(where: { $0.description.name.localizedCaseInsensitiveContains(choice) }) { return device }
            if let denied = errors.first(where: { if case .permissionDenied = $0 { true } else { false } }) {
                throw CommandFailure(denied.description)
            }
            throw CommandFailure("No input device's name contains '\(choice)'; run 'gestures devices' to list them")
        }
        let preferred = devices.first { $0.description.kind == .touchpad } ?? devices.first { $0.description.kind == .touchscreen }
        if let preferred { return preferred }
        if devices.isEmpty && errors.isEmpty { throw CommandFailure(noDevices(in: directory)) }
        if let denied = errors.first(where: { if case .permissionDenied = $0 { true } else { false } }) {
            throw CommandFailure(denied.description)
        }
        throw CommandFailure("No touchpad or touchscreen found in \(directory); name one with --device (see 'gestures devices')")
    }
}
