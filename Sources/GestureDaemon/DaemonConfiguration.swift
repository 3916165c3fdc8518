import GestureRecognition

/// Everything the daemon is told by its configuration file, checked: which
/// devices to read, the engine's thresholds, swipe sequences, the stroke
/// templates, how actions run, and the bindings from gestures to commands.
///
/// Read one with ``DaemonConfiguration/load(contentsOf:)`` or
/// ``DaemonConfiguration/decode(_:format:baseDirectory:)``; both check every
/// key and collect every error (see ``ConfigurationErrors``). The schema is
/// documented in the README's "Desktop daemon" section.
public struct DaemonConfiguration: Sendable {
    /// The version of the schema this code reads.
    public static let version = 1

    /// The devices to read; empty means every touchpad and touchscreen.
    public var devices: [DeviceMatcher] = []
    /// The engine's thresholds, with ``sequences`` set.
    public var engine = GestureEngine.Configuration()
    /// The swipe sequences the engine recognises (also in ``engine``).
    public var sequences: [SwipeSequenceMatcher.NamedSequence] = []
    /// The path of the template library, or nil for the bundled 16 $1 shapes.
    public var templatesPath: String?
    /// The templates drawn strokes are recognised against.
    public var templates: TemplateLibrary = .dollarShapes
    /// How actions are run.
    public var actions = ActionSettings()
    /// Mouse gestures: which button draws and how strokes are recognised;
    /// nil (no `mouse` section) reads no mice.
    public var mouse: MouseSettings?
    /// The bindings, in file order: an event fires them in this order.
    public var bindings: [Binding] = []

    /// An empty configuration: every touch device, the engine's defaults, no bindings.
    public init() {}
}

extension DaemonConfiguration {
    /// The `mouse` section: shapes drawn with a mouse while a button is held
    /// are recognised against ``DaemonConfiguration/templates`` and delivered
    /// as `stroke` events (no phase, 0 fingers).
    public struct MouseSettings: Hashable, Sendable {
        /// The button held while drawing.
        public enum Button: String, Hashable, Sendable, CaseIterable {
            case right, middle, left
        }

        /// Whether the direction a shape is drawn in matters.
        public enum Orientation: String, Hashable, Sendable, CaseIterable {
            /// A shape matches only within 30 degrees of its template's
            /// orientation: a line drawn right-to-left is not one drawn left-to-right.
            case sensitive
            /// A shape matches in any orientation (the $1 study's setting).
            case invariant
        }

        /// The button that draws (default right).
        public var button = Button.right
        /// The path length below which a press is a click, in mouse counts: the
        /// kernel's `REL_X`/`REL_Y` units, before pointer acceleration (about
        /// 0.025 mm each on a 1,000 dpi mouse). Default 20.
        public var minimumLengthCounts = 20.0
        /// Whether orientation matters (default sensitive).
        public var orientation = Orientation.sensitive
        /// Best scores below this (in 0...1) are no match (default 0.75).
        public var threshold = 0.75

        /// The defaults.
        public init() {}

        /// The recognizer's configuration for these settings.
        public var recognition: UnistrokeRecognizer.Configuration {
            UnistrokeRecognizer.Configuration(
                orientation: orientation == .sensitive ? .sensitive : .invariant,
                rejectionThreshold: threshold)
        }
    }

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

    /// A set of devices: a name pattern (whole name, through `PatternMatcher`)
    /// and/or a USB-style vendor and product id; every given part must match.
    public struct DeviceMatcher: Hashable, Sendable {
        /// The regular expression the whole device name must match.
        public var namePattern: String?
        /// The vendor id.
        public var vendor: Int?
        /// The product id.
        public var product: Int?

        /// A matcher for the given parts.
        public init(namePattern: String? = nil, vendor: Int? = nil, product: Int? = nil) {
            self.namePattern = namePattern
            self.vendor = vendor
            self.product = product
        }
    }

    /// One binding: which gestures it matches and what it runs.
    public struct Binding: Hashable, Sendable {
        /// The binding's name for logs, or nil (logs then say `bindings[3]`).
        public var name: String?
        /// Where it is in the file: `bindings[3]`.
        public var path: String
        /// Which gestures it matches.
        public var match: Match
        /// What it runs, and when.
        public var action: Action

        /// A binding at `path`.
        public init(name: String? = nil, path: String, match: Match, action: Action) {
            self.name = name
            self.path = path
            self.match = match
            self.action = action
        }

        /// The name, or the path when it has none.
        public var label: String { name ?? path }
    }

    /// The conditions of a binding; nil conditions are not checked.
    public struct Match: Hashable, Sendable {
        /// The kind of gesture.
        public var gesture: GestureEvent.Kind
        /// The number of fingers.
        public var fingers: Int?
        /// Swipes: the direction (end events give the engine's direction;
        /// updates are classified with the engine's classifier).
        public var swipeDirection: SwipeDirection?
        /// Pinches: in, out, clockwise or counterclockwise.
        public var pinchDirection: PinchDirection?
        /// Swipes: the edge they started from.
        public var edge: GestureEvent.Edge?
        /// Strokes: the template's name.
        public var template: String?
        /// Sequences: the sequence's name.
        public var sequence: String?
        /// The device the gesture came from.
        public var device: DeviceMatcher?
        /// Swipes: the least displacement, in millimetres.
        public var minimumDistanceMillimeters: Double?
        /// Pinches: the least scale (pinch out past it).
        public var minimumScale: Double?
        /// Pinches: the greatest scale (pinch in below it).
        public var maximumScale: Double?
        /// Pinches: the least rotation either way, in degrees.
        public var minimumAngleDegrees: Double?

        /// A match on `gesture` alone.
        public init(gesture: GestureEvent.Kind) {
            self.gesture = gesture
        }
    }

    /// The way a pinch goes, as a binding's `direction`.
    public enum PinchDirection: String, Hashable, Sendable, CaseIterable {
        /// The fingers close: the scale falls below 1 minus the engine's pinch threshold.
        case `in`
        /// The fingers spread: the scale passes 1 plus the engine's pinch threshold.
        case out
        /// The fingers turn clockwise past the engine's rotation threshold.
        case clockwise
        /// The fingers turn counterclockwise past the engine's rotation threshold.
        case counterclockwise
    }

    /// What a binding runs, and when.
    public struct Action: Hashable, Sendable {
        /// The program and its arguments, run without a shell.
        public var command: [String]
        /// When it fires.
        public var phase: Phase = .end
        /// How long it may run; nil for ``ActionSettings/timeout``.
        public var timeout: Duration?

        /// An action running `command` on `phase`.
        public init(command: [String], phase: Phase = .end, timeout: Duration? = nil) {
            self.command = command
            self.phase = phase
            self.timeout = timeout
        }
    }

    /// When an action fires.
    public enum Phase: Hashable, Sendable {
        /// Once, when the gesture completes (not when it is cancelled); taps,
        /// strokes and sequences complete as they happen. The default.
        case end
        /// Once per gesture, on the first event at which every condition
        /// holds: the begin itself when the binding has no direction,
        /// distance, scale or angle condition.
        case begin
        /// Every `every` units of travel while the gesture moves: millimetres
        /// for swipes, degrees for rotations, scale steps for pinches in or out.
        case continuous(every: Double)

        /// `end`, `begin` or `continuous`.
        public var name: String {
            switch self {
            case .end: "end"
            case .begin: "begin"
            case .continuous: "continuous"
            }
        }
    }
}

extension DaemonConfiguration {
    /// The hard limits on a configuration file, each checked before or while
    /// it is read, and the range of every number it may hold (documented in
    /// the README's "Desktop daemon" section; the engine's numbers are
    /// `GestureEngine.Configuration.numberRanges`).
    public enum Limits {
        /// The largest file read at all: 1 MiB.
        public static let maximumFileBytes = 1 << 20
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
        /// `mouse.threshold`: 0 to 1.
        public static let thresholdRange = NumberRange(0...1)
    }
}
