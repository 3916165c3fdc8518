import EvdevInput
import Foundation
import GestureRecognition
import InputChecks
import InputInterception
import Synchronization
import TouchInput

/// The desktop daemon: takes gesture events from any ``GestureSource``,
/// matches them against the configuration's bindings and hands the fired
/// actions to an ``ActionRunner``; reloads without dropping a gesture in
/// progress.
///
///     let daemon = GestureDaemon(configuration: try DaemonConfiguration.load(contentsOf: path))
///     try daemon.run(ReplaySource(.files(["swipe.jsonl"])))
///
/// Matching happens on the source's thread and takes microseconds; commands
/// run in the background, so a slow command never holds up input.
public final class GestureDaemon: Sendable {
    private struct State {
        var matcher: BindingMatcher
        /// Device-matcher verdicts for the current configuration.
        var acceptedDevices: [InputDevice: Bool] = [:]
        /// What is claimed on each device under the current configuration,
        /// by which bindings apply to the focused window.
        var policies: [PolicyKey: PassThroughFilter.Policy] = [:]
        /// The window focused when the fingers last landed on each device
        /// (an intercepting source asks for the claims then), for the
        /// gesture that starts there; `.some(nil)`: none was focused.
        var landed: [Int: FocusedWindow?] = [:]
        /// The window each device's gesture in progress began with, for explanations.
        var gestureFocus: [Int: FocusedWindow] = [:]
        /// Every device gestures came from, in the order first seen, whatever the configuration.
        var seen: [InputDevice] = []
    }

    private struct PolicyKey: Hashable {
        var device: InputDevice
        var applicability: [DaemonConfiguration.Applicability]
    }

    private let state: Mutex<State>
    /// Where the focused window comes from, or nil: bindings naming
    /// applications (`apps`, `title`) then never apply.
    public let focus: (any FocusSource)?
    /// The runner the fired actions go to.
    public let runner: ActionRunner
    /// Where the daemon logs.
    public let log: DaemonLog
    /// Where explanations go (`run --explain`): every event's binding
    /// verdicts, worth showing or not; nil explains nothing.
    public let explain: (@Sendable (GestureExplanation) -> Void)?
    /// Whether fired actions run; false for `gestures replay --explain`,
    /// which says what would fire and does nothing.
    public let runsActions: Bool
    /// The file the configuration came from, for log lines; nil when it
    /// came from none.
    public let configurationPath: String?
    /// Who watches this daemon (a page of `gestures ui`, through its
    /// ``DaemonChannel``): while anyone does, every frame and every event's
    /// explanation are published to them; while nobody does, nothing is made for them.
    public let watchers = DaemonWatchers()
    /// How many watchers asked to try gestures (``setTrying(_:)``): while any do, nothing fired runs.
    private let trying = Mutex<Bool>(false)
    /// Whether a watcher records the devices' events (``setRecording(_:)``): one atomic load a frame.
    private let recording = Atomic<Bool>(false)
    /// The number of each device's latest `events` line, so a recorder sees a gap.
    private let recordedFrames = Mutex<[Int: Int]>([:])

    /// A daemon with `configuration`, running commands with `launcher`,
    /// input actions through `inputDevices` (made now when the configuration
    /// has input actions, so the desktop has them before the first one), and
    /// logging to `log`; `configurationPath` names the configuration's file
    /// in log lines. With `runsActions: false` nothing fired runs (no
    /// command, no input action, no virtual device made): only the
    /// explanations and the log say what would have.
    public init(
        configuration: DaemonConfiguration, launcher: any ProcessLauncher = SpawnLauncher(),
        inputDevices: any VirtualInputDevices = UinputInputDevices(), log: DaemonLog = .standardError,
        explain: (@Sendable (GestureExplanation) -> Void)? = nil, runsActions: Bool = true, configurationPath: String? = nil,
        focus: (any FocusSource)? = nil
    ) {
        self.configurationPath = configurationPath
        self.state = Mutex(State(matcher: BindingMatcher(configuration: configuration)))
        self.focus = focus
        self.explain = explain
        self.runsActions = runsActions
        self.runner = ActionRunner(settings: configuration.actions, launcher: launcher, inputDevices: inputDevices, log: log)
        self.log = log
        if runsActions, configuration.usesInputActions { runner.input.prepare() }
    }

    /// The configuration new gestures are matched with.
    public var configuration: DaemonConfiguration {
        state.withLock { $0.matcher.configuration }
    }

    /// Every device a source has offered gestures from, in the order first seen.
    public var devicesSeen: [InputDevice] {
        state.withLock { $0.seen }
    }

    /// Logs what in `configuration` will not work as written
    /// (``DaemonConfiguration/warnings()``), each line naming `path`.
    public func logWarnings(_ configuration: DaemonConfiguration, path: String) {
        for warning in configuration.warnings() { log.write("warning: \(path): \(warning)") }
    }

    /// Logs the bindings whose device filter matches none of the devices
    /// seen so far (``devicesSeen``), each line naming
    /// ``configurationPath``: a live source calls it once it has offered the
    /// devices present at its start, a replay when its traces are done.
    public func logDeviceWarnings() {
        let prefix = configurationPath.map { "warning: \($0): " } ?? "warning: "
        for warning in configuration.warnings(devices: devicesSeen) { log.write(prefix + warning.description) }
    }

    /// Uses `configuration` from now on: new gestures, new devices and new
    /// actions follow it; a gesture in progress ends under the old one.
    public func apply(_ configuration: DaemonConfiguration) {
        state.withLock {
            $0.matcher.replaceConfiguration(configuration)
            $0.acceptedDevices = [:]
            $0.policies = [:]
        }
        runner.update(configuration.actions)
        if runsActions, configuration.usesInputActions { runner.input.prepare() }
        focus?.prepare(for: configuration)
    }

    /// Matches one event and submits the actions it fires; never blocks on
    /// them. A gesture is matched with the window focused when its fingers
    /// landed (when the source asked for the claims), else when its first
    /// event came (a recorded focus: at that event's time).
    public func handle(_ event: GestureEvent, from device: InputDevice) {
        let watched = watchers.isWatched
        let explaining = explain != nil || watched
        let starts = event.phase == nil || event.phase == .begin
        let (actions, verdicts, notes, window) = state.withLock { state in
            var window = state.gestureFocus[device.id]
            if starts {
                window = state.landed.removeValue(forKey: device.id) ?? focus?.focusedWindow(at: event.time)
                state.gestureFocus[device.id] = event.phase == .begin ? window : nil
            } else if event.phase == .end {
                state.gestureFocus[device.id] = nil
            }
            if explaining {
                let (actions, verdicts) = state.matcher.explain(event, from: device, focus: window)
                return (actions, verdicts, state.matcher.takeNotes(), window)
            }
            return (state.matcher.process(event, from: device, focus: window), [], state.matcher.takeNotes(), window)
        }
        notes.forEach(log.write)
        if explaining {
            let explanation = GestureExplanation(event: event, device: device, verdicts: verdicts, focus: window)
            explain?(explanation)
            if watched { watchers.publish(.explanation(device: device.id, explanation, trying: isTrying)) }
        }
        let tryingNow = isTrying
        if runsActions && !tryingNow { actions.forEach(runner.submit) }
        if tryingNow, !actions.isEmpty {
            log.write("trying: \(actions.count) action\(actions.count == 1 ? "" : "s") not run (a page tries gestures)")
        }
    }

    /// Takes a stroke drawn on `device` with its verdict: one that fires
    /// nothing is a log line with the rule that rejected it and its figures
    /// (`DrawnStroke.rejectionLine(device:)`); an accepted one fires through ``handle(_:from:)``.
    /// With ``explain``, a rejected stroke is explained too: the rule's
    /// reason, and each stroke binding's verdict.
    public func strokeDrawn(_ stroke: DrawnStroke, on device: InputDevice) {
        guard let line = stroke.rejectionLine(device: device.name) else { return }
        log.write(line)
        let watched = watchers.isWatched
        guard explain != nil || watched else { return }
        let (verdicts, notes) = state.withLock { state in (state.matcher.explainRejected(stroke, from: device), state.matcher.takeNotes()) }
        notes.forEach(log.write)
        guard let explanation = GestureExplanation(rejected: stroke, device: device, verdicts: verdicts) else { return }
        explain?(explanation)
        if watched { watchers.publish(.explanation(device: device.id, explanation, trying: isTrying)) }
    }

    /// Whether a watcher tries gestures now: bindings are matched and
    /// explained as ever, and nothing they fire runs (`gestures ui`'s "Try it").
    public var isTrying: Bool { trying.withLock { $0 } }

    /// Starts or ends trying (watchers are told: `{"trying":{"on":...}}`).
    public func setTrying(_ on: Bool) {
        let changed = trying.withLock { state -> Bool in
            defer { state = on }
            return state != on
        }
        guard changed else { return }
        log.write(on ? "trying: a page tries gestures; nothing fired runs until it stops" : "trying: stopped; fired actions run again")
        watchers.publish(.trying(on))
    }

    /// Whether a watcher records the devices' events now.
    public var isRecording: Bool { recording.load(ordering: .relaxed) }

    /// Starts or ends handing watchers every frame's events as read
    /// (`{"events":...}` lines, numbered per device), for a recorder.
    public func setRecording(_ on: Bool) {
        guard recording.exchange(on, ordering: .relaxed) != on else { return }
        log.write(on ? "recording: a page records the devices' events" : "recording: stopped")
        watchers.publish(.recording(on))
    }

    /// Publishes one frame's events of `device` to the recorders.
    private func record(_ events: [InputEvent], of device: InputDevice, _ description: DeviceDescription) {
        let sequence = recordedFrames.withLock { numbers -> Int in
            numbers[device.id, default: 0] += 1
            return numbers[device.id]!
        }
        watchers.announce(.device(id: device.id, description))
        watchers.publish(.events(device: device.id, sequence: sequence, events))
    }

    /// Whether the configuration's `devices` take `device` (all devices when
    /// it has none). A name pattern that times out does not match, and says so.
    public func accepts(_ device: InputDevice) -> Bool {
        let (accepted, notes) = state.withLock { state -> (Bool, [String]) in
            if let known = state.acceptedDevices[device] { return (known, []) }
            if !state.seen.contains(device) { state.seen.append(device) }
            let matchers = state.matcher.configuration.devices
            var notes: [String] = []
            var accepted = matchers.isEmpty
            for (index, matcher) in matchers.enumerated() where !accepted {
                switch matcher.match(device) {
                case .matched: accepted = true
                case .notMatched: break
                case .patternFailed(let outcome):
                    notes.append(
                        "devices[\(index)].name: the pattern \(outcome) against the device \(Excerpt.quoted(device.name)), so it does not match"
                    )
                }
            }
            state.acceptedDevices[device] = accepted
            if !accepted, explain != nil {
                notes.append(
                    "explain: \(Excerpt.quoted(device.name)) is not one of the configuration's devices (devices:), so no binding considers its gestures"
                )
            }
            return (accepted, notes)
        }
        notes.forEach(log.write)
        return accepted
    }

    /// What is claimed on `device` under the current configuration, while
    /// the window focused now has the focus: asked when the fingers land (or
    /// a mouse's stroke button goes down), so a reload or a focus change
    /// applies from the next touch or press, and the gesture that starts is
    /// matched with the same window. With `time` (a replay's moment on the
    /// gestures' clock), the window is the one focused then
    /// (``FocusSource/focusedWindow(at:)``: a recorded focus).
    public func interceptionPolicy(for device: InputDevice, at time: Duration? = nil) -> PassThroughFilter.Policy {
        let window = focus?.focusedWindow(at: time ?? .zero)
        let (policy, notes) = state.withLock { state -> (PassThroughFilter.Policy, [String]) in
            state.landed[device.id] = .some(window)
            let applicability = state.matcher.configuration.applicability(for: window)
            let key = PolicyKey(device: device, applicability: applicability)
            if let known = state.policies[key] { return (known, []) }
            let (policy, notes) = state.matcher.configuration.interceptionPolicy(for: device, applicability: applicability)
            // A few windows a device: bounded, so titles that change do not grow it.
            if state.policies.count >= 256 { state.policies = [:] }
            state.policies[key] = policy
            return (policy, notes)
        }
        notes.forEach(log.write)
        return policy
    }

    /// Forgets what is kept for `device` (its gesture in progress): it went away.
    public func deviceRemoved(_ device: InputDevice) {
        watchers.forget(device: device.id)
        watchers.publish(.removed(device: device.id))
        state.withLock {
            $0.matcher.forget(device)
            $0.acceptedDevices[device] = nil
            $0.policies = $0.policies.filter { $0.key.device != device }
            $0.landed[device.id] = nil
            $0.gestureFocus[device.id] = nil
        }
    }

    /// The engine setup for a device opened now.
    public func engineSetup() -> EngineSetup {
        let configuration = self.configuration
        return EngineSetup(
            configuration: configuration.engine, templates: configuration.templates, mouse: configuration.mouse,
            intercept: configuration.intercept)
    }

    /// The sink a source delivers to.
    public var sink: GestureSink {
        GestureSink(
            accepts: { [self] in accepts($0) },
            engineSetup: { [self] in engineSetup() },
            deliver: { [self] event, device in handle(event, from: device) },
            strokeDrawn: { [self] stroke, device in strokeDrawn(stroke, on: device) },
            deviceRemoved: { [self] in deviceRemoved($0) },
            interceptionPolicy: { [self] in interceptionPolicy(for: $0, at: $1) },
            startedReading: { [self] in logDeviceWarnings() },
            log: log,
            watchesFrames: { [watchers] in watchers.isWatched },
            frame: { [watchers] frame, time, device, description in
                watchers.announce(.device(id: device.id, description))
                watchers.publish(.frame(device: device.id, time: time, frame, published: Date()))
            },
            recordsEvents: { [self] in isRecording },
            events: { [self] events, device, description in record(events, of: device, description) })
    }

    /// The first line a watcher is handed: the interface's version and the configuration.
    public var hello: ChannelMessage {
        .hello(configuration: configurationPath, bindings: configuration.bindings.count)
    }

    /// Runs `source` to its end, then waits for every action it fired; the
    /// focus source is readied for the configuration first (a live one
    /// connects in the background when a binding needs it).
    public func run(_ source: some GestureSource) throws {
        focus?.prepare(for: configuration)
        defer { runner.waitUntilIdle() }
        try source.run(into: sink)
    }

    /// Reloads through `reloader` and applies the result: a new valid
    /// configuration replaces the old one, and a bad one is logged and
    /// changes nothing. Returns whether the configuration changed.
    @discardableResult
    public func reload(_ reloader: inout ConfigurationReloader, reason: String) -> Bool {
        switch reloader.reload() {
        case .reloaded(let configuration):
            apply(configuration)
            log.write(
                "reloaded \(reloader.path) (\(reason)): \(configuration.bindings.count) binding\(configuration.bindings.count == 1 ? "" : "s")"
            )
            logWarnings(configuration, path: reloader.path)
            watchers.publish(.reloaded(configuration: reloader.path, bindings: configuration.bindings.count, error: nil))
            return true
        case .kept(let errors):
            let said = errors.description(listedBy: "gestures check-config \(reloader.path)")
            log.write("kept the old configuration (\(reason)): \(said)")
            watchers.publish(.reloaded(configuration: reloader.path, bindings: nil, error: said))
            return false
        }
    }
}
