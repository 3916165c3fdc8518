extension DaemonConfiguration {
    /// The hard limits on a configuration file, each checked before or while
    /// it is read.
    public enum Limits {
        /// The largest file read at all: 1 MiB.
        public static let maximumFileBytes = 1 << 20
        /// The most bindings: 1,000.
        public static let maximumBindings = 1_000
        /// The most device matchers: 64.
        public static let maximumDevices = 64
        /// The most sequences: 100.
        public static let maximumSequences = 100
        /// The most directions in one sequence: 32.
        public static let maximumSequenceLength = 32
        /// The longest device-name pattern, in UTF-16 code units: 1,000
        /// (compiling is not time-limited, so its length is).
        public static let maximumPatternLength = 1_000
        /// The most words in a command: 256.
        public static let maximumCommandArguments = 256
        /// The longest word of a command, in UTF-8 bytes: 4,096.
        public static let maximumArgumentBytes = 4_096
        /// The longest command, all words together, in UTF-8 bytes: 65,536.
        public static let maximumCommandBytes = 65_536
        /// The longest binding name: 200 characters.
        public static let maximumNameLength = 200
        /// The longest a command may run: 1 hour.
        public static let maximumTimeout: Duration = .seconds(3_600)
        /// The most commands at once: 64.
        public static let maximumConcurrent = 64
        /// The most commands waiting: 1,024.
        public static let maximumQueue = 1_024
        /// The smallest continuous step for swipes: 0.5 mm.
        public static let minimumEveryMillimeters = 0.5
        /// The smallest continuous step for rotations: 1 degree.
        public static let minimumEveryDegrees = 1.0
        /// The smallest continuous step for pinches in or out: 0.01.
        public static let minimumEveryScale = 0.01
        /// The longest a still mouse press may be withheld: 5,000 ms.
        public static let maximumPressAfterMilliseconds = 5_000.0
    }
}
