import Foundation
import InputChecks
import StructuredDocuments
import TouchInput

/// Reads and writes `libinput record` YAML, version 1: `devices:` each with
/// `evdev:` (`name`, `id`, `codes`, `absinfo`, `properties`) and `events:`, a
/// list of `- evdev:` frames of `[sec, usec, type, code, value]` rows.
/// Unknown keys (`libinput:`, `system:`, `hid:`, `udev:`, `- libinput:` events...) are ignored.
enum LibinputRecord {
    static func parse(_ data: Data, limits: TraceReader.Limits) throws(TraceError) -> Trace {
        let root: YAMLNode
        do { root = try YAMLNode.parse(data) } catch {
            switch error.kind {
            case .empty: throw TraceError(.emptyFile)
            case .malformed: throw TraceError(.malformedYAML(error.detail(withColumn: true)), line: error.line)
            }
        }
        guard case .mapping = root else { throw TraceError(.malformedYAML("the document is not a mapping"), line: root.line) }
        guard let version = root["version"] else { throw TraceError(.missingKey("version")) }
        guard case .scalar(let versionText, _, _) = version, versionText == "1" else {
            let found: String
            if case .scalar(let text, _, _) = version { found = text } else { found = "(not a number)" }
            throw TraceError(.unsupportedRecordVersion(found: Excerpt.escaped(found)), line: version.line)
        }
        guard let devicesNode = root["devices"] else { throw TraceError(.missingKey("devices")) }
        guard case .sequence(let deviceNodes, _) = devicesNode else {
            throw TraceError(.invalidValue(key: "devices", reason: "is not a list"), line: devicesNode.line)
        }
        guard deviceNodes.count <= limits.maximumDevices else {
            throw TraceError(.tooManyDevices(found: deviceNodes.count, limit: limits.maximumDevices), line: devicesNode.line)
        }
        var devices: [DeviceDescription] = []
        var perDevice: [[Trace.Frame]] = []
        for (index, node) in deviceNodes.enumerated() {
            guard let evdev = node["evdev"] else { throw TraceError(.missingKey("devices[\(index)].evdev"), line: node.line) }
            let device = try description(evdev, index: index, limits: limits)
            devices.append(device)
            var frames: [Trace.Frame] = []
            if let eventsNode = node["events"] {
                switch eventsNode {
                case .sequence(let items, _):
                    for item in items {
                        guard let rows = item["evdev"] else { continue }  // `- libinput:` entries and others
                        guard case .sequence(let rowNodes, _) = rows else {
                            throw TraceError(.invalidValue(key: "evdev", reason: "is not a list of events"), line: rows.line)
                        }
                        var events: [InputEvent] = []
                        events.reserveCapacity(rowNodes.count)
                        for row in rowNodes { events.append(try event(row)) }
                        guard events.count <= limits.maximumEventsPerFrame else {
                            throw TraceError(.tooManyEvents(limit: limits.maximumEventsPerFrame), line: rows.line)
                        }
                        frames += Trace.frames(splitting: events, device: index)
                    }
                case .scalar(let text, _, _) where text.isEmpty || text == "~" || text == "null":
                    break
                default:
                    throw TraceError(.invalidValue(key: "events", reason: "is not a list"), line: eventsNode.line)
                }
            }
            perDevice.append(frames)
        }
        return Trace(devices: devices, frames: merge(perDevice))
    }

    /// Merges the frames of several devices by the time of their first event (stable).
    private static func merge(_ perDevice: [[Trace.Frame]]) -> [Trace.Frame] {
        if perDevice.count == 1 { return perDevice[0] }
        var all: [(time: Int64, device: Int, index: Int, frame: Trace.Frame)] = []
        for (device, frames) in perDevice.enumerated() {
            for (index, frame) in frames.enumerated() {
                all.append((frame.events.first?.microseconds ?? .min, device, index, frame))
            }
        }
        all.sort { ($0.time, $0.device, $0.index) < ($1.time, $1.device, $1.index) }
        return all.map(\.frame)
    }

    private static func integers(_ node: YAMLNode, key: String) throws(TraceError) -> [Int64] {
        guard case .sequence(let items, _) = node else {
            throw TraceError(.invalidValue(key: key, reason: "is not a list of integers"), line: node.line)
        }
        var values: [Int64] = []
        values.reserveCapacity(items.count)
        for item in items {
            guard case .scalar(let text, _, _) = item, let value = Int64(text) else {
                throw TraceError(.invalidValue(key: key, reason: "holds something that is not an integer"), line: item.line)
            }
            values.append(value)
        }
        return values
    }

    private static func event(_ row: YAMLNode) throws(TraceError) -> InputEvent {
        let values = try integers(row, key: "event")
        guard values.count == 5 else {
            throw TraceError(.invalidValue(key: "event", reason: "must be [sec, usec, type, code, value]"), line: row.line)
        }
        guard values[1] >= 0 && values[1] < 1_000_000 else { throw TraceError(.numberOutOfRange("usec \(values[1])"), line: row.line) }
        // A negative time as (sec + 1) * 1e6 - (1e6 - usec): the first event of Int64.min microseconds
        // has seconds whose product alone would pass Int64.
        let borrow = values[0] < 0 && values[1] > 0
        let (scaled, o1) = (borrow ? values[0] + 1 : values[0]).multipliedReportingOverflow(by: 1_000_000)
        let (time, o2) = scaled.addingReportingOverflow(borrow ? values[1] - 1_000_000 : values[1])
        guard !o1 && !o2 else { throw TraceError(.numberOutOfRange("the time \(values[0]).\(values[1])"), line: row.line) }
        guard let type = UInt16(exactly: values[2]), let code = UInt16(exactly: values[3]) else {
            throw TraceError(.numberOutOfRange("event type or code"), line: row.line)
        }
        guard let value = Int32(exactly: values[4]) else { throw TraceError(.numberOutOfRange("event value \(values[4])"), line: row.line) }
        return InputEvent(type: type, code: code, value: value, microseconds: time)
    }

    private static func description(_ evdev: YAMLNode, index: Int, limits: TraceReader.Limits) throws(TraceError) -> DeviceDescription {
        func scalar(_ key: String) throws(TraceError) -> String {
            guard let node = evdev[key] else { throw TraceError(.missingKey("devices[\(index)].evdev.\(key)"), line: evdev.line) }
            guard case .scalar(let text, _, _) = node else {
                throw TraceError(.invalidValue(key: key, reason: "is not a string"), line: node.line)
            }
            return text
        }
        func uint16(_ value: Int64, _ what: String, _ line: Int) throws(TraceError) -> UInt16 {
            guard let result = UInt16(exactly: value) else { throw TraceError(.numberOutOfRange("\(what) \(value)"), line: line) }
            return result
        }
        var device = DeviceDescription(name: try scalar("name"))
        guard let idNode = evdev["id"] else { throw TraceError(.missingKey("devices[\(index)].evdev.id"), line: evdev.line) }
        let id = try integers(idNode, key: "id")
        guard id.count == 4 else {
            throw TraceError(.invalidValue(key: "id", reason: "must be [bus, vendor, product, version]"), line: idNode.line)
        }
        device.id = .init(
            bus: try uint16(id[0], "bus", idNode.line), vendor: try uint16(id[1], "vendor", idNode.line),
            product: try uint16(id[2], "product", idNode.line), version: try uint16(id[3], "version", idNode.line))
        if let codes = evdev["codes"], case .mapping(let pairs, _) = codes {
            for pair in pairs {
                let (typeText, list) = (pair.key, pair.value)
                guard let type = UInt16(typeText) else {
                    throw TraceError(
                        .invalidValue(key: "codes", reason: "has the event type \(Excerpt.quoted(typeText)), not a number"), line: list.line
                    )
                }
                var set = Set<UInt16>()
                for code in try integers(list, key: "codes") { set.insert(try uint16(code, "code", list.line)) }
                device.codes[type] = set
            }
        }
        if let absinfo = evdev["absinfo"], case .mapping(let pairs, _) = absinfo {
            for pair in pairs {
                let (codeText, list) = (pair.key, pair.value)
                guard let code = UInt16(codeText) else {
                    throw TraceError(
                        .invalidValue(key: "absinfo", reason: "has the axis \(Excerpt.quoted(codeText)), not a number"), line: list.line)
                }
                let values = try integers(list, key: "absinfo")
                guard values.count == 5, let converted = Optional(values.compactMap { Int32(exactly: $0) }), converted.count == 5 else {
                    throw TraceError(
                        .invalidValue(key: "absinfo", reason: "must hold [min, max, fuzz, flat, resolution] within 32 bits"),
                        line: list.line)
                }
                device.absInfo[code] = AbsInfo(
                    minimum: converted[0], maximum: converted[1], fuzz: converted[2],
                    flat: converted[3], resolution: converted[4])
            }
        }
        if let properties = evdev["properties"] {
            for property in try integers(properties, key: "properties") {
                device.properties.insert(try uint16(property, "property", properties.line))
            }
        }
        if let slots = device.absInfo[ABS.MT_SLOT], Int64(slots.maximum) + 1 > Int64(limits.maximumSlots) {
            throw TraceError(.tooManySlots(found: Int(Int64(slots.maximum) + 1), limit: limits.maximumSlots), line: evdev.line)
        }
        return device
    }

    // MARK: Writing

    static func encode(_ trace: Trace) -> [UInt8] {
        var out: [UInt8] = []
        out.append("# libinput record\n# Written by gestures (GestureTraces); times are as recorded.\n")
        out.append("version: 1\nndevices: ")
        out.appendDecimal(trace.devices.count)
        out.append("\ndevices:\n")
        for (index, device) in trace.devices.enumerated() {
            out.append("- node: /dev/input/event\(index)\n  evdev:\n    name: ")
            out.appendJSONString(device.name)
            out.append("\n    id: [\(device.id.bus), \(device.id.vendor), \(device.id.product), \(device.id.version)]\n")
            out.append(device.codes.isEmpty ? "    codes: {}\n" : "    codes:\n")
            for type in device.codes.keys.sorted() {
                out.append("      \(type): [\(device.codes[type]!.sorted().map(String.init).joined(separator: ", "))] # \(EV.name(type))\n")
            }
            out.append(device.absInfo.isEmpty ? "    absinfo: {}\n" : "    absinfo:\n")
            for code in device.absInfo.keys.sorted() {
                let info = device.absInfo[code]!
                out.append("      \(code): [\(info.minimum), \(info.maximum), \(info.fuzz), \(info.flat), \(info.resolution)]\n")
            }
            out.append("    properties: [\(device.properties.sorted().map(String.init).joined(separator: ", "))]\n")
            // libinput replay compares these with what udev assigns the replayed device.
            out.append("  udev:\n    properties:\n    - ID_INPUT=1\n")
            switch device.kind {
            case .touchpad: out.append("    - ID_INPUT_TOUCHPAD=1\n")
            case .touchscreen: out.append("    - ID_INPUT_TOUCHSCREEN=1\n")
            case .mouse: out.append("    - ID_INPUT_MOUSE=1\n")
            case .tablet: out.append("    - ID_INPUT_TABLET=1\n")
            case .other: break
            }
            out.append("  quirks: []\n  events:\n")
            // A frame without events would be `evdev:` with no rows, which no reader takes: it holds nothing, so it is left out.
            for frame in trace.frames where frame.device == index && !frame.events.isEmpty {
                out.append("  - evdev:\n")
                for event in frame.events {
                    out.append("    - [")
                    out.appendDecimal(event.seconds); out.append(", ")
                    out.appendDecimal(event.microsecondsPart); out.append(", ")
                    out.appendDecimal(Int(event.type)); out.append(", ")
                    out.appendDecimal(Int(event.code)); out.append(", ")
                    out.appendDecimal(event.value); out.append("]\n")
                }
            }
        }
        return out
    }
}
