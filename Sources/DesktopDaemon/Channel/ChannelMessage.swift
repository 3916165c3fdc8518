import Foundation
import GestureRecognition
import GestureTraces
import InputChecks
import TouchInput

/// One line a daemon publishes to its watchers (``DaemonWatchers``, and so
/// its socket, ``DaemonChannel``): a JSON object on one line whose only key
/// says what it is. The format is the daemon's documented local interface
/// (Docs/Page.md); `gestures ui` relays these lines to its page as they are.
///
///     ChannelMessage.hello(configuration: "/home/me/.config/gestures/config.yaml", bindings: 3).jsonLine
///     // {"hello":{"version":1,"configuration":"/home/me/.config/gestures/config.yaml","bindings":3}}
public enum ChannelMessage: Sendable {
    /// The first line on a connection: the interface's version, the configuration's file and its number of bindings.
    case hello(configuration: String?, bindings: Int)
    /// A device whose frames follow, with what a drawing needs: its size in
    /// millimetres and which contact figures it reports.
    case device(id: Int, DeviceDescription)
    /// One decoded frame of device `device` at `time` (the gestures' clock),
    /// with the wall-clock moment the daemon published it.
    case frame(device: Int, time: Duration, TouchFrame, published: Date)
    /// One gesture event and every binding's verdict (`--explain`'s JSON line), from device `device`;
    /// `trying`: a watcher tries gestures, so what fired did not run.
    case explanation(device: Int, GestureExplanation, trying: Bool = false)
    /// Trying began or ended (``GestureDaemon/setTrying(_:)``).
    case trying(Bool)
    /// The events of one frame of device `device` as it sent them, the
    /// `sequence`-th of that device since the daemon started (a recorder
    /// that misses one sees the gap); published while a watcher records.
    case events(device: Int, sequence: Int, [InputEvent])
    /// Recording began or ended (``GestureDaemon/setRecording(_:)``).
    case recording(Bool)
    /// Device `device` went away (unplugged, a Bluetooth pad that dropped): a device that comes back has a new id.
    case removed(device: Int)
    /// The configuration was reloaded (`bindings` now) or a reload kept the old one (`error`).
    case reloaded(configuration: String, bindings: Int?, error: String?)

    /// The interface's version, in every `hello`.
    public static let version = 1

    /// Whether it describes a device (kept for later watchers).
    public var isDevice: Bool {
        if case .device = self { return true }
        return false
    }

    /// The message as one line of JSON (no newline).
    public var jsonLine: String {
        switch self {
        case .hello(let configuration, let bindings):
            let file = configuration.map(JSONText.quoted) ?? "null"
            return "{\"hello\":{\"version\":\(Self.version),\"configuration\":\(file),\"bindings\":\(bindings)}}"
        case .device(let id, let description):
            return "{\"device\":\(Self.deviceObject(id: id, description))}"
        case .frame(let device, let time, let frame, let published):
            return
                "{\"frame\":\(Self.frameObject(device: device, time: time, frame)),\"published_ms\":\(Self.number(published.timeIntervalSince1970 * 1000))}"
        case .explanation(let device, let explanation, let trying):
            return "{\"explanation\":\(explanation.jsonLine),\"device_id\":\(device)\(trying ? ",\"trying\":true" : "")}"
        case .trying(let on):
            return "{\"trying\":{\"on\":\(on)}}"
        case .events(let device, let sequence, let events):
            // The trace's own frame line (device index 0: a recording holds one device), with the device and the number.
            let line = TraceWriter.frameLine(Trace.Frame(device: 0, events: events))
            return "{\"events\":{\"device\":\(device),\"seq\":\(sequence)," + String(decoding: line.dropFirst(), as: UTF8.self) + "}"
        case .recording(let on):
            return "{\"recording\":{\"on\":\(on)}}"
        case .removed(let device):
            return "{\"removed\":{\"device\":\(device)}}"
        case .reloaded(let configuration, let bindings, let error):
            let outcome = bindings.map { "\"bindings\":\($0)" } ?? "\"error\":\(JSONText.quoted(error ?? ""))"
            return "{\"reloaded\":{\"configuration\":\(JSONText.quoted(configuration)),\(outcome)}}"
        }
    }

    private static func number(_ value: Double) -> String { GestureEvent.decimalText(value) }

    private static func deviceObject(id: Int, _ description: DeviceDescription) -> String {
        let size = description.sizeMillimeters
        let pressure = description.contactPressureRange.map { "[\(number($0.lowerBound)),\(number($0.upperBound))]" } ?? "null"
        let touchMajor = description.absInfo[ABS.MT_TOUCH_MAJOR].map { "[\($0.minimum),\($0.maximum)]" } ?? "null"
        // Touch sizes are in the position axes' units (the kernel's multitouch protocol).
        let scale = description.positionScale(multitouch: description.contactProtocol != .singleTouch)
        let unitsPerMillimeter = scale.map { number($0.unitsPerMillimeterX) } ?? "null"
        return "{\"id\":\(id),\"name\":\(JSONText.quoted(description.name)),\"kind\":\(JSONText.quoted(description.kind.rawValue)),"
            + "\"width_mm\":\(size.map { number($0.width) } ?? "null"),\"height_mm\":\(size.map { number($0.height) } ?? "null"),"
            + "\"slots\":\(description.slotCount),\"semi_mt\":\(description.isSemiMT),\"pressure\":\(pressure),"
            + "\"touch_major\":\(touchMajor),\"units_per_mm\":\(unitsPerMillimeter),"
            + "\"trace_header\":\(String(decoding: TraceWriter.headerLine([description]), as: UTF8.self))}"
    }

    private static func frameObject(device: Int, time: Duration, _ frame: TouchFrame) -> String {
        var contacts: [String] = []
        contacts.reserveCapacity(frame.contacts.count)
        for contact in frame.contacts {
            var fields =
                "{\"id\":\(contact.id),\"slot\":\(contact.slot),\"x_mm\":\(number(contact.position.x)),\"y_mm\":\(number(contact.position.y))"
            if let pressure = contact.pressure { fields += ",\"pressure\":\(pressure)" }
            if let major = contact.touchMajor { fields += ",\"touch_major\":\(major)" }
            if let minor = contact.touchMinor { fields += ",\"touch_minor\":\(minor)" }
            if contact.isPalm { fields += ",\"palm\":true" }
            contacts.append(fields + "}")
        }
        return "{\"device\":\(device),\"time_ms\":\(number(GestureEvent.milliseconds(time))),\"fingers\":\(frame.fingerCount),"
            + "\"buttons\":\(frame.buttons.rawValue),\"contacts\":[\(contacts.joined(separator: ","))]}"
    }
}
