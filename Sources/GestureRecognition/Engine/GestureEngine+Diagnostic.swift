extension GestureEngine {
    /// Something the engine noticed that it could not handle as a gesture:
    /// kept on ``GestureEngine/diagnostics`` instead of trapping.
    public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
        /// What went wrong.
        public enum Kind: String, Hashable, Sendable, Codable {
            /// An input the current state has no transition for: a bug in the
            /// engine, logged the way libinput logs "invalid gesture event".
            case unexpectedInput
            /// A frame earlier than the previous one; it was taken as happening
            /// at the previous time.
            case timeWentBackwards
            /// A contact with a NaN or infinite position; it was left out.
            case nonFiniteContact
            /// The configuration could not be used as given (for example a
            /// sequence without directions); the part named was switched off.
            case invalidConfiguration
        }

        /// What went wrong.
        public var kind: Kind
        /// The time of the input that caused it.
        public var time: Duration
        /// The state the engine was in.
        public var state: GestureEngine.StateName
        /// A sentence saying what happened.
        public var message: String

        /// A diagnostic of `kind` at `time` in `state`.
        public init(kind: Kind, time: Duration, state: GestureEngine.StateName, message: String) {
            self.kind = kind
            self.time = time
            self.state = state
            self.message = message
        }

        public var description: String {
            "\(kind.rawValue) at \(GestureEvent.decimalText(GestureEvent.milliseconds(time))) ms in \(state.rawValue): \(message)"
        }
    }
}
