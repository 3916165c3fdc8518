import Foundation
import GestureRecognition
import InputChecks
import TouchInput

/// The first line of a JSON trace: format name, version and device descriptions.
///
/// Decoded in two steps so the version is checked before anything else:
/// first only `format` and `version`, then the devices.
struct TraceHeader {
    static let formatName = "gestures-trace"
    static let version = 1

    var devices: [DeviceDescription]

    private struct Probe: Decodable {
        var format: String?
        var version: Int?
    }

    private struct Body: Decodable {
        var devices: [Device]
    }

    private struct Device: Decodable {
        var name: String
        var id: [Int64]
        var properties: [Int64]?
        var codes: [String: [Int64]]?
        var absinfo: [String: [Int64]]?
    }

    /// Reads a header line, checking format and version first and then the limits.
    static func decode(_ line: Data, limits: TraceReader.Limits) throws(TraceError.Kind) -> TraceHeader {
        let decoder = JSONDecoder()
        do { try JSONText.checkSyntax(line) } catch {
            // Text that is not a JSON object is not a trace; an object that breaks
            // the syntax or a limit is a header with a problem, said with its column.
            guard line.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") else { throw .notATrace }
            throw .malformedHeader("column \(error.column): \(error.message)")
        }
        let probe: Probe
        do {
            probe = try decoder.decode(Probe.self, from: line)
        } catch {
            // A JSON object whose format is not a string or whose version is not an integer.
            if line.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") {
                throw .malformedHeader("'format' must be a string and 'version' an integer")
            }
            throw .notATrace
        }
        guard probe.format == formatName else { throw .notATrace }
        guard let version = probe.version else { throw .malformedHeader("no 'version'") }
        guard version == Self.version else { throw .unsupportedVersion(found: version) }
        let body: Body
        do {
            body = try decoder.decode(Body.self, from: line)
        } catch let DecodingError.keyNotFound(key, context) {
            throw .malformedHeader("no '\(Excerpt.escaped(key.stringValue))' in \(path(context.codingPath))")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .malformedHeader("\(path(context.codingPath)) has the wrong type")
        } catch let DecodingError.dataCorrupted(context) {
            throw .malformedHeader("\(path(context.codingPath)) is not a valid number or value")
        } catch {
            throw .malformedHeader("the devices cannot be read")
        }
        guard body.devices.count <= limits.maximumDevices else {
            throw .tooManyDevices(found: body.devices.count, limit: limits.maximumDevices)
        }
        var devices: [DeviceDescription] = []
        for (index, device) in body.devices.enumerated() {
            devices.append(try description(device, index: index, limits: limits))
        }
        return TraceHeader(devices: devices)
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        let text = codingPath.map { $0.intValue.map(String.init) ?? Excerpt.escaped($0.stringValue) }.joined(separator: ".")
        return text.isEmpty ? "the header" : "'\(text)'"
    }

    private static func description(_ device: Device, index: Int, limits: TraceReader.Limits) throws(TraceError.Kind) -> DeviceDescription {
        func uint16(_ value: Int64, _ what: String) throws(TraceError.Kind) -> UInt16 {
            guard let result = UInt16(exactly: value) else { throw .numberOutOfRange("device \(index) \(what) \(value)") }
            return result
        }
        func int32(_ value: Int64, _ what: String) throws(TraceError.Kind) -> Int32 {
            guard let result = Int32(exactly: value) else { throw .numberOutOfRange("device \(index) \(what) \(value)") }
            return result
        }
        guard device.id.count == 4 else { throw .malformedHeader("device \(index) 'id' must be [bus, vendor, product, version]") }
        var description = DeviceDescription(
            name: device.name,
            id: .init(
                bus: try uint16(device.id[0], "bus"), vendor: try uint16(device.id[1], "vendor"),
                product: try uint16(device.id[2], "product"), version: try uint16(device.id[3], "version")))
        for property in device.properties ?? [] {
            description.properties.insert(try uint16(property, "property"))
        }
        for (typeText, codes) in device.codes ?? [:] {
            guard let type = UInt16(typeText) else {
                throw .malformedHeader("device \(index) event type \(Excerpt.quoted(typeText)) is not a number")
            }
            var set = Set<UInt16>()
            for code in codes { set.insert(try uint16(code, "code")) }
            description.codes[type] = set
        }
        for (codeText, values) in device.absinfo ?? [:] {
            guard let code = UInt16(codeText) else {
                throw .malformedHeader("device \(index) axis \(Excerpt.quoted(codeText)) is not a number")
            }
            guard values.count == 5 else {
                throw .malformedHeader("device \(index) absinfo \(codeText) must be [min, max, fuzz, flat, resolution]")
            }
            description.absInfo[code] = AbsInfo(
                minimum: try int32(values[0], "minimum"), maximum: try int32(values[1], "maximum"),
                fuzz: try int32(values[2], "fuzz"), flat: try int32(values[3], "flat"),
                resolution: try int32(values[4], "resolution"))
        }
        if let slots = description.absInfo[ABS.MT_SLOT], Int64(slots.maximum) + 1 > Int64(limits.maximumSlots) {
            throw .tooManySlots(found: Int(Int64(slots.maximum) + 1), limit: limits.maximumSlots)
        }
        return description
    }

    /// The header as one line of JSON, without the newline.
    static func encode(_ devices: [DeviceDescription]) -> [UInt8] {
        var out: [UInt8] = []
        out.append("{\"format\":\"gestures-trace\",\"version\":1,\"devices\":[")
        for (index, device) in devices.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append("{\"name\":")
            out.appendJSONString(device.name)
            out.append(",\"id\":[")
            out.appendDecimal(Int(device.id.bus)); out.append(UInt8(ascii: ","))
            out.appendDecimal(Int(device.id.vendor)); out.append(UInt8(ascii: ","))
            out.appendDecimal(Int(device.id.product)); out.append(UInt8(ascii: ","))
            out.appendDecimal(Int(device.id.version))
            out.append("],\"properties\":[")
            appendList(device.properties.sorted(), to: &out)
            out.append("],\"codes\":{")
            for (position, type) in device.codes.keys.sorted().enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\"")); out.appendDecimal(Int(type)); out.append("\":[")
                appendList(device.codes[type]!.sorted(), to: &out)
                out.append(UInt8(ascii: "]"))
            }
            out.append("},\"absinfo\":{")
            for (position, code) in device.absInfo.keys.sorted().enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                let info = device.absInfo[code]!
                out.append(UInt8(ascii: "\"")); out.appendDecimal(Int(code)); out.append("\":[")
                out.appendDecimal(info.minimum); out.append(UInt8(ascii: ","))
                out.appendDecimal(info.maximum); out.append(UInt8(ascii: ","))
                out.appendDecimal(info.fuzz); out.append(UInt8(ascii: ","))
                out.appendDecimal(info.flat); out.append(UInt8(ascii: ","))
                out.appendDecimal(info.resolution); out.append(UInt8(ascii: "]"))
            }
            out.append("}}")
        }
        out.append("]}")
        return out
    }

    private static func appendList(_ values: [UInt16], to out: inout [UInt8]) {
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.appendDecimal(Int(value))
        }
    }
}
