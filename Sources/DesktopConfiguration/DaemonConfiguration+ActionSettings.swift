extension DaemonConfiguration {
    /// How the action runner runs commands.
    public struct ActionSettings: Hashable, Sendable {
        /// The most commands running at once (1...64, default 4).
        public var maximumConcurrent = 4
        /// The most commands waiting for a free slot (0...1,024, default 32);
        /// an action fired when the queue is full is dropped with a warning.
        public var queueLimit = 32
        /// How long a command may run before it is killed, unless its binding
        /// says otherwise (default 10 s, at most 1 hour).
        public var timeout: Duration = .seconds(10)

        /// The defaults.
        public init() {}
    }
}
