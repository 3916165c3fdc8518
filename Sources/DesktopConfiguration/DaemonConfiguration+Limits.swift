import GestureRecognition
import InputChecks

extension DaemonConfiguration {
    /// The hard limits on a configuration file, each checked before or while
    /// it is read, and the range of every number it may hold (documented in
    /// the README's "Desktop daemon" section; the engine's numbers are
    /// `GestureEngine.Configuration.numberRanges`).
    public enum Limits {
        /// The largest file read at all: 1 MiB.
        public static let maximumFileBytes = 1 << 20
        /// The longest that matching one focused window against every
        /// binding's `apps`, `notApps` and `title` may take: 100 ms (five
        /// patterns at their own 20 ms limit). A pattern not decided by then
        /// fails for that window, as a pattern that timed out does.
        public static let focusMatchingTime: Duration = .milliseconds(100)
        /// The most bindings: 1,000.
        public static let maximumBindings = 1_000
        /// The most device matchers: 64.
        public static let maximumDevices = 64
        /// The most sequences: 100 (`SwipeSequenceMatcher.maximumCount`).
        public static let maximumSequences = SwipeSequenceMatcher.maximumCount
        /// The most directions in one sequence: 32 (`SwipeSequenceMatcher.maximumLength`).
        public static let maximumSequenceLength = SwipeSequenceMatcher.maximumLength
        /// The longest device-name pattern, in UTF-16 code units: 1,000
        /// (compiling is not time-limited, so its length is).
        public static let maximumPatternLength = 1_000
        /// The most patterns in one binding's `apps` or `notApps`: 32.
        public static let maximumApplicationPatterns = 32
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
        public static let minimumEveryMillimeters = everyMillimetersRange.minimum
        /// The smallest continuous step for rotations: 1 degree.
        public static let minimumEveryDegrees = everyDegreesRange.minimum
        /// The smallest continuous step for pinches in or out: 0.01.
        public static let minimumEveryScale = everyScaleRange.minimum

        /// `bindings[].fingers`: 1 to 5.
        public static let fingersRange = NumberRange.integers(1...GestureEngine.maximumFingers)
        /// `devices[].vendor` and `product`: 0 to 65535.
        public static let deviceIDRange = NumberRange.integers(0...0xffff)
        /// `bindings[].minimumDistanceMillimeters`: 0 to 1,000 mm.
        public static let distanceRange = NumberRange(0...1_000)
        /// `bindings[].minimumScale` and `maximumScale`: the scales a pinch can
        /// reach, 0.01 to 100 (`TransformState.scaleRange`).
        public static let scaleRange = NumberRange(TransformState.scaleRange)
        /// `bindings[].minimumAngleDegrees`: 0 to 3,600 degrees (ten turns).
        public static let angleRange = NumberRange(0...3_600)
        /// `action.every` for swipes: 0.5 to 1,000 mm.
        public static let everyMillimetersRange = NumberRange(0.5...1_000)
        /// `action.every` for rotations: 1 to 3,600 degrees.
        public static let everyDegreesRange = NumberRange(1...3_600)
        /// `action.every` for pinches in or out: 0.01 to 100 scale steps.
        public static let everyScaleRange = NumberRange(0.01...100)
        /// `timeoutSeconds` (actions and bindings): 0.001 to 3,600 seconds.
        public static let timeoutSecondsRange = NumberRange(0.001...3_600)
        /// `actions.maximumConcurrent`: 1 to 64.
        public static let concurrentRange = NumberRange.integers(1...maximumConcurrent)
        /// `actions.queueLimit`: 0 to 1,024.
        public static let queueRange = NumberRange.integers(0...maximumQueue)
        /// `mouse.minimumLengthCounts`: 0 to 10,000 counts.
        public static let minimumLengthCountsRange = NumberRange(0...10_000)
        /// `mouse.minimumSizeCounts`: 0 to 100,000 counts.
        public static let minimumSizeCountsRange = NumberRange(0...100_000)
        /// `mouse.threshold`: 0 to 1.
        public static let thresholdRange = NumberRange(0...1)
        /// `mouse.pressAfterMilliseconds`, how long a still press is withheld: 0 to 5,000 ms.
        public static let pressAfterMillisecondsRange = NumberRange(0...5_000)
    }
}
