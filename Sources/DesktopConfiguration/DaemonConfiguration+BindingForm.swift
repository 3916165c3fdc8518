import GestureRecognition
import InputChecks
import TouchInput

extension DaemonConfiguration {
    /// What a form for one binding holds, from the reader's own tables: each
    /// key a binding may have, how it is entered, the words it takes and the
    /// gestures it applies to (``Binding/applicable``), and the same for its
    /// action. The page of `gestures ui` draws its binding form from this, so
    /// a key or a word added to the reader reaches the form with no edit of
    /// the page; whether a value is right is still the reader's to say.
    public struct BindingForm: Sendable {
        /// How a field is entered.
        public enum Entry: Sendable, Equatable {
            /// One of these words (or none).
            case choice([String])
            /// The words depend on the gesture: a swipe's directions are not a pinch's.
            case choiceByGesture([String: [String]])
            /// A whole number in this range.
            case integer(ClosedRange<Int>)
            /// A number in this range, in `unit`.
            case number(ClosedRange<Double>, unit: String)
            /// Text on one line.
            case text
            /// Several patterns (regular expressions), one a line.
            case patterns
            /// Yes or no.
            case flag
        }

        /// One key of a binding or of its action.
        public struct Field: Sendable {
            /// The key in the file: `fingers`, `minimumScale`, `action.every`.
            public var key: String
            /// The label a person reads.
            public var label: String
            /// How it is entered.
            public var entry: Entry
            /// The gestures it applies to; nil: every gesture.
            public var gestures: [String]?
            /// One phrase of help.
            public var help: String
        }

        /// The gestures a binding can name, in the reader's order.
        public var gestures: [String]
        /// The binding's keys, then the action's (`action.` first).
        public var fields: [Field]
        /// The kinds of action, of which a binding has one: `command`, `keys`, `button`, `drag`.
        public var actionKinds: [String]

        /// The form as one JSON object.
        public var jsonText: String {
            func entry(_ entry: Entry) -> String {
                switch entry {
                case .choice(let words): "{\"kind\":\"choice\",\"words\":[\(words.map(JSONText.quoted).joined(separator: ","))]}"
                case .choiceByGesture(let byGesture):
                    "{\"kind\":\"choice\",\"byGesture\":{"
                        + byGesture.keys.sorted().map { key in
                            JSONText.quoted(key) + ":[" + byGesture[key]!.map(JSONText.quoted).joined(separator: ",") + "]"
                        }.joined(separator: ",") + "}}"
                case .integer(let range): "{\"kind\":\"integer\",\"minimum\":\(range.lowerBound),\"maximum\":\(range.upperBound)}"
                case .number(let range, let unit):
                    "{\"kind\":\"number\",\"minimum\":\(GestureEvent.decimalText(range.lowerBound)),\"maximum\":\(GestureEvent.decimalText(range.upperBound)),\"unit\":\(JSONText.quoted(unit))}"
                case .text: "{\"kind\":\"text\"}"
                case .patterns: "{\"kind\":\"patterns\"}"
                case .flag: "{\"kind\":\"flag\"}"
                }
            }
            let fields = fields.map { field in
                "{\"key\":\(JSONText.quoted(field.key)),\"label\":\(JSONText.quoted(field.label)),\"entry\":\(entry(field.entry)),"
                    + "\"gestures\":\(field.gestures.map { "[" + $0.map(JSONText.quoted).joined(separator: ",") + "]" } ?? "null"),"
                    + "\"help\":\(JSONText.quoted(field.help))}"
            }
            return "{\"gestures\":[\(gestures.map(JSONText.quoted).joined(separator: ","))],"
                + "\"actionKinds\":[\(actionKinds.map(JSONText.quoted).joined(separator: ","))],\"fields\":[\(fields.joined(separator: ","))]}"
        }
    }

    /// The form for this configuration's bindings: its templates and sequences are the words `template` and `sequence` take.
    public var bindingForm: BindingForm {
        typealias Key = Binding.CodingKeys
        func applies(_ key: Key) -> [String]? { Binding.applicable[key].map { $0.map(\.rawValue).sorted() } }
        func range(_ numbers: NumberRange) -> ClosedRange<Double> { numbers.minimum...numbers.maximum }
        let fingers = Int(Limits.fingersRange.minimum)...Int(Limits.fingersRange.maximum)
        let buttons = DaemonConfiguration.MouseSettings.Button.closedWords.words
        var fields: [BindingForm.Field] = [
            .init(key: "name", label: "Name", entry: .text, gestures: nil, help: "what the log and --explain call it"),
            .init(
                key: "gesture", label: "Gesture", entry: .choice(GestureEvent.Kind.closedWords.words), gestures: nil,
                help: "the kind of gesture"),
            .init(key: "fingers", label: "Fingers", entry: .integer(fingers), gestures: nil, help: "any number of fingers when left out"),
            .init(
                key: "direction", label: "Direction",
                entry: .choiceByGesture([
                    "swipe": SwipeDirection.closedWords.words, "pinch": DaemonConfiguration.PinchDirection.closedWords.words,
                ]), gestures: applies(.direction), help: "any direction when left out"),
            .init(
                key: "edge", label: "From the edge", entry: .choice(GestureEvent.Edge.closedWords.words), gestures: applies(.edge),
                help: "a swipe that starts at this edge of the pad"),
            .init(
                key: "template", label: "Shape", entry: .choice(templates.names), gestures: applies(.template),
                help: "a shape of the template library"),
            .init(
                key: "sequence", label: "Sequence", entry: .choice(sequences.map(\.name)), gestures: applies(.sequence),
                help: "one of the configuration's swipe sequences"),
            .init(
                key: "minimumDistanceMillimeters", label: "Shortest swipe", entry: .number(range(Limits.distanceRange), unit: "mm"),
                gestures: applies(.minimumDistanceMillimeters), help: "a shorter swipe does not fire it"),
            .init(
                key: "minimumScale", label: "Smallest scale", entry: .number(range(Limits.scaleRange), unit: "×"),
                gestures: applies(.minimumScale), help: "fires only at this scale or above"),
            .init(
                key: "maximumScale", label: "Largest scale", entry: .number(range(Limits.scaleRange), unit: "×"),
                gestures: applies(.maximumScale), help: "fires only at this scale or below"),
            .init(
                key: "minimumAngleDegrees", label: "Smallest rotation", entry: .number(range(Limits.angleRange), unit: "°"),
                gestures: applies(.minimumAngleDegrees), help: "fires only once turned this far"),
            .init(
                key: "apps", label: "Only in applications", entry: .patterns, gestures: nil, help: "regular expressions of application ids"),
            .init(
                key: "notApps", label: "Not in applications", entry: .patterns, gestures: nil,
                help: "regular expressions of application ids"),
            .init(
                key: "title", label: "Window title", entry: .text, gestures: nil, help: "a regular expression the window's title must match"
            ),
            .init(
                key: "device.name", label: "Only on the device", entry: .text, gestures: nil,
                help: "a regular expression of the device's name (the live view lists the devices)"),
            .init(
                key: "claim", label: "Keep it from the desktop", entry: .flag, gestures: applies(.claim),
                help: "the desktop does not see a gesture this binding claims"),
        ]
        fields += [
            .init(key: "action.command", label: "Command", entry: .text, gestures: nil, help: "run with sh -c"),
            .init(key: "action.keys", label: "Keys", entry: .text, gestures: nil, help: "a chord, keys joined by +: ctrl+alt+left"),
            .init(key: "action.button", label: "Click", entry: .choice(buttons), gestures: nil, help: "a mouse button to click"),
            .init(
                key: "action.drag", label: "Drag with", entry: .choice(buttons), gestures: ["swipe"],
                help: "a button held while the swipe moves"),
            .init(
                key: "action.phase", label: "When", entry: .choice(Action.phases.words), gestures: nil,
                help: "at the end (the default), the beginning, or continuously"),
            .init(
                key: "action.every", label: "Every",
                entry: .number(range(Limits.everyMillimetersRange), unit: "mm, scale steps or degrees"),
                gestures: ["swipe", "pinch"], help: "a continuous action's step"),
            .init(
                key: "action.timeoutSeconds", label: "Time limit", entry: .number(range(Limits.timeoutSecondsRange), unit: "s"),
                gestures: nil, help: "a command still running then is stopped"),
        ]
        return BindingForm(
            gestures: GestureEvent.Kind.closedWords.words, fields: fields, actionKinds: Action.kinds.map(\.stringValue))
    }
}

extension DaemonConfiguration.Action {
    /// An action's keys, in the order the reader lists them: how a binding written anew orders its action.
    public static let keyOrder = CodingKeys.allCases.map(\.stringValue)
}
