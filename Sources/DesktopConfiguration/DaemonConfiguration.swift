import GestureRecognition
import InputChecks

/// Everything the daemon is told by its configuration file, checked: which
/// devices to read, the engine's thresholds, swipe sequences, the stroke
/// templates, how actions run, and the bindings from gestures to commands.
///
/// Read one with ``DaemonConfiguration/load(contentsOf:)`` or
/// ``DaemonConfiguration/decode(_:format:baseDirectory:)``; both check every
/// key and collect every error (see ``ConfigurationErrors``). The schema is
/// documented in the README's "The desktop daemon in detail" section.
public struct DaemonConfiguration: Sendable {
    /// The version of the schema this code reads.
    public static let version = 1

    /// The devices to read; empty means every touchpad and touchscreen.
    public var devices: [DeviceMatcher] = []
    /// Whether the daemon takes the devices it reads from the desktop (a
    /// grab and a uinput clone; see ``Binding/claim``), so claimed gestures
    /// and drawn mouse strokes never reach it; false reads beside the desktop.
    public var intercept = true
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
    /// What the bindings' application patterns gave against focused windows'
    /// names (``applicability(for:within:)``), shared by this configuration's copies.
    public let focusMatches = FocusMatches()

    /// An empty configuration: every touch device, the engine's defaults, no bindings.
    public init() {}
}

extension DaemonConfiguration {
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
        /// Whether the gesture is kept from the desktop while the daemon
        /// intercepts (``DaemonConfiguration/intercept``); the default is
        /// ``DaemonConfiguration/claimsByDefault(_:)``.
        public var claim: Bool
        /// Whether a mouse's stroke button is withheld for this binding while
        /// the daemon intercepts (a mouse stroke has no finger count, so only
        /// a `stroke` binding without `fingers` can): its `claim` when the
        /// file says, else true, so a mouse stroke never clicks by default.
        /// A press is withheld only when such a binding applies to the window
        /// focused as the button goes down.
        public var claimsMouseStrokes: Bool

        /// A binding at `path`; `claimsMouseStrokes` (for a `stroke` binding
        /// without `fingers`, else false) is true unless it says false.
        public init(
            name: String? = nil, path: String, match: Match, action: Action, claim: Bool = false, claimsMouseStrokes: Bool? = nil
        ) {
            self.name = name
            self.path = path
            self.match = match
            self.action = action
            self.claim = claim
            self.claimsMouseStrokes = match.gesture == .stroke && match.fingers == nil && (claimsMouseStrokes ?? true)
        }

        /// Whether it claims a gesture from a mouse (``claimsMouseStrokes``)
        /// or from a touch device (``claim``), while the daemon intercepts:
        /// the one place that choice is made, for the policy and for explain.
        public func claims(onMouse mouse: Bool) -> Bool {
            mouse ? claimsMouseStrokes : claim
        }

        /// The name, or the path when it has none.
        public var label: String { name ?? path }

        /// How a message names it: `bindings[2] ('next workspace')`, or
        /// `bindings[2]` alone when it has no name.
        public var reference: String { name.map { "\(path) (\(Excerpt.quoted($0, limit: 40)))" } ?? path }
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
        /// The focused applications it applies to (`apps`, `notApps`,
        /// `title`), or nil: every application.
        public var application: ApplicationFilter?
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
        /// The program and its arguments, run without a shell; empty for an ``input`` action.
        public var command: [String]
        /// What the daemon does itself instead of running a command (keys, a
        /// click, a drag), or nil.
        public var input: InputAction?
        /// When it fires (a drag follows the whole swipe, whatever this says).
        public var phase: Phase = .end
        /// How long it may run; nil for ``ActionSettings/timeout``.
        public var timeout: Duration?

        /// An action running `command` on `phase`.
        public init(command: [String], phase: Phase = .end, timeout: Duration? = nil) {
            self.command = command
            self.phase = phase
            self.timeout = timeout
        }

        /// An action the daemon performs itself on `phase`.
        public init(input: InputAction, phase: Phase = .end) {
            self.command = []
            self.input = input
            self.phase = phase
        }

        /// The command as words, or the input action's summary: for logs.
        public var summary: String {
            input?.summary ?? command.joined(separator: " ")
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
