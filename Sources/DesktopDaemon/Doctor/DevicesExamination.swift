import Foundation
import InputChecks
import TouchInput

/// The touch devices and mice: their kind and size, whether they can be
/// read, and if none can, why (the udev rule, the `input` group, a group
/// added since this login). Leaves the devices that can be read in the
/// context, for the configuration's device filters.
struct DevicesExamination: DoctorExamination {
    var area: DoctorCheck.Area { .devices }

    /// One event node and what is known of it.
    struct Node {
        var path: String
        var name: String?
        var kind: DeviceDescription.Kind?
        var description: DeviceDescription?
        var probe: DoctorDeviceProbe

        var isWanted: Bool { kind == .touchpad || kind == .touchscreen || kind == .mouse }
    }

    func examine(_ context: inout DoctorContext) -> DoctorCheck {
        let system = context.system
        let devicesDirectory = context.devicesDirectory
        guard let names = system.names(in: devicesDirectory) else {
            context.readableDevices = nil
            return DoctorCheck(
                area: .devices, status: .unknown,
                summary: "\(devicesDirectory) cannot be listed, so no device could be checked.",
                fix: "Run gestures doctor on the machine with the touchpad, outside a container without /dev/input.")
        }
        let nodes = names.compactMap { name -> Int? in name.hasPrefix("event") ? Int(name.dropFirst(5)) : nil }
            .sorted().map { node(number: $0, context) }
        let check = devicesCheck(nodes, context)
        let readable = nodes.enumerated().compactMap { index, node -> InputDevice? in
            guard node.isWanted, case .opened(let description) = node.probe else { return nil }
            return InputDevice(id: index, description: description)
        }
        context.readableDevices = readable.isEmpty ? nil : readable
        return check
    }

    private func devicesCheck(_ nodes: [Node], _ context: DoctorContext) -> DoctorCheck {
        let wanted = nodes.filter(\.isWanted)
        let details = wanted.map(line)
        let readable = wanted.filter { if case .opened = $0.probe { true } else { false } }
        if !readable.isEmpty {
            let counts = Dictionary(grouping: readable, by: { $0.kind! }).sorted { $0.key.rawValue < $1.key.rawValue }
                .map { DoctorWords.counted($0.value.count, $0.key.rawValue) }
            var summary = "\(DoctorWords.list(counts)) can be read."
            var fix: String?
            if let denied = wanted.first(where: { $0.probe == .denied }) {
                let reason = context.accessReason(denied.path, reading: true)
                summary += " \(denied.path) cannot: \(reason.why)."
                fix = reason.fix
            }
            return DoctorCheck(area: .devices, status: .ok, summary: summary, fix: fix, details: details)
        }
        // Nothing wanted can be read: a node whose kind is unknown because it cannot be read may still be the touchpad.
        let denied = wanted.first { $0.probe == .denied } ?? nodes.first { $0.probe == .denied && $0.kind == nil }
        if let denied {
            let reason = context.accessReason(denied.path, reading: true)
            let what = denied.kind.map { "the \($0.rawValue) \(denied.path)" } ?? denied.path
            return DoctorCheck(
                area: .devices, status: .problem,
                summary: "No touchpad, touchscreen or mouse can be read: \(what) cannot, because \(reason.why).",
                fix: reason.fix, details: details)
        }
        if let failed = wanted.first, case .failed(let sentence) = failed.probe {
            return DoctorCheck(
                area: .devices, status: .problem,
                summary: "No touchpad, touchscreen or mouse can be read: \(sentence)",
                fix: "Check that the device is still plugged in, then run gestures doctor again.", details: details)
        }
        return DoctorCheck(
            area: .devices, status: .problem,
            summary: "No touchpad, touchscreen or mouse was found in \(context.devicesDirectory).",
            fix: "Connect one (gestures replay and gestures run --replay work on recordings without one).", details: details)
    }

    private func node(number: Int, _ context: DoctorContext) -> Node {
        let system = context.system
        let path = "\(context.devicesDirectory)/event\(number)"
        let sys = "/sys/class/input/event\(number)"
        let name = system.text(of: "\(sys)/device/name").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let probe = system.probe(path)
        if case .opened(let description) = probe {
            return Node(path: path, name: description.name, kind: description.kind, description: description, probe: probe)
        }
        return Node(path: path, name: name, kind: udevKind(sys, system), probe: probe)
    }

    /// The kind udev gave the node (`ID_INPUT_TOUCHPAD=1` in its database
    /// entry), for nodes that cannot be opened.
    private func udevKind(_ sys: String, _ system: any DoctorSystem) -> DeviceDescription.Kind? {
        guard let number = system.text(of: "\(sys)/dev")?.trimmingCharacters(in: .whitespacesAndNewlines),
            let entry = system.text(of: "/run/udev/data/c\(number)")
        else { return nil }
        let properties = Set(entry.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        if properties.contains("E:ID_INPUT_TOUCHPAD=1") { return .touchpad }
        if properties.contains("E:ID_INPUT_TOUCHSCREEN=1") { return .touchscreen }
        if properties.contains("E:ID_INPUT_TABLET=1") { return .tablet }
        if properties.contains("E:ID_INPUT_MOUSE=1") { return .mouse }
        return .other
    }

    private func line(_ node: Node) -> String {
        var words = [node.kind?.rawValue ?? "unknown", node.path]
        if let name = node.name { words.append(Excerpt.quoted(name, limit: 60)) }
        if let size = node.description?.sizeMillimeters {
            words.append("\(DoctorWords.number(size.width)) x \(DoctorWords.number(size.height)) mm")
        }
        switch node.probe {
        case .opened: words.append("readable")
        case .denied: words.append("not readable")
        case .failed(let sentence): words.append("failed: \(sentence)")
        }
        return words.joined(separator: "  ")
    }
}
