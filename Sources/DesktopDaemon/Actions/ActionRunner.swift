import EvdevInput
import Foundation
import GestureRecognition
import TouchInput

/// Runs fired actions in the background, never blocking the caller: at most
/// `maximumConcurrent` commands at once, up to `queueLimit` more waiting in
/// order, and anything beyond that dropped with a warning.
///
/// Queueing a little keeps the actions of one continuous gesture (a volume
/// step per 5 mm) and a burst of gestures in order; a bound on the queue
/// keeps a stuck command from piling up work: an action that would run
/// seconds late is worse than one dropped. With `maximumConcurrent` 1 the
/// commands run strictly one after another, in the order fired.
///
/// Every command is logged when it starts (`fired`), and again only when it
/// fails (a status other than 0, a signal, its timeout, or not starting);
/// a failure never stops the runner.
///
/// Input actions (keys, clicks, drags) go to the ``InputActionPerformer``
/// instead, in order, outside the command limits: they take microseconds.
/// Each is logged when it fires, but a drag's moves and release are not.
public final class ActionRunner: @unchecked Sendable {
    // All mutable state is guarded by `condition`.
    private let condition = NSCondition()
    private var settings: DaemonConfiguration.ActionSettings
    private var queue: [FiredAction] = []
    private var running = 0
    private var finishedCount = 0
    private var failedCount = 0
    private var droppedCount = 0
    private let launcher: any ProcessLauncher
    private let log: DaemonLog
    /// Where input actions go.
    public let input: InputActionPerformer

    /// A runner with `settings`, starting commands with `launcher`, input
    /// actions through `inputDevices`, and logging to `log`.
    public init(
        settings: DaemonConfiguration.ActionSettings, launcher: any ProcessLauncher = SpawnLauncher(),
        inputDevices: any VirtualInputDevices = UinputInputDevices(), log: DaemonLog
    ) {
        self.settings = settings
        self.launcher = launcher
        self.log = log
        self.input = InputActionPerformer(devices: inputDevices, log: log)
    }

    /// Uses `settings` from now on; running and queued actions are kept.
    public func update(_ settings: DaemonConfiguration.ActionSettings) {
        condition.lock()
        self.settings = settings
        let starting = startable()
        condition.unlock()
        starting.forEach(start)
    }

    /// Starts `action` now, queues it, or drops it when the queue is full.
    /// Never blocks.
    public func submit(_ action: FiredAction) {
        if let step = action.input {
            switch step {
            case .keys, .click, .dragPress:
                log.write("fired \(action.binding) (\(action.gesture)): \(Self.describe(step))")
            case .dragMove, .dragRelease:
                break
            }
            input.perform(step, for: action.binding)
            return
        }
        condition.lock()
        let accepted = running < settings.maximumConcurrent || queue.count < settings.queueLimit
        if accepted { queue.append(action) } else { droppedCount += 1 }
        let limits = (settings.maximumConcurrent, settings.queueLimit)
        let starting = startable()
        condition.unlock()
        if !accepted {
            log.write(
                "dropped \(action.binding): \(limits.0) commands running and \(limits.1) waiting, the limit; not running \(Self.quoted(action.command))"
            )
        }
        starting.forEach(start)
    }

    /// Blocks until no action is running or waiting.
    public func waitUntilIdle() {
        input.waitUntilIdle()
        condition.lock()
        while running > 0 || !queue.isEmpty { condition.wait() }
        condition.unlock()
    }

    /// `keys leftmeta+right`, `click left`, `drag with button 272`: an input step for the log.
    static func describe(_ step: InputStep) -> String {
        func key(_ code: UInt16) -> String { KeyNames.name(of: code) ?? String(code) }
        func button(_ code: UInt16) -> String {
            [BTN.LEFT: "left", BTN.RIGHT: "right", BTN.MIDDLE: "middle"][code] ?? String(code)
        }
        switch step {
        case .keys(let codes): return "keys " + codes.map(key).joined(separator: "+")
        case .click(let code): return "click \(button(code))"
        case .dragPress(let code): return "drag with the \(button(code)) button"
        case .dragMove: return "drag move"
        case .dragRelease: return "drag release"
        }
    }

    /// Counts so far: commands finished (including failures), failed (commands
    /// and input actions), dropped.
    public var counts: (finished: Int, failed: Int, dropped: Int) {
        let inputFailures = input.failedCount
        condition.lock()
        defer { condition.unlock() }
        return (finishedCount, failedCount + inputFailures, droppedCount)
    }

    /// Takes from the queue what may start now; call with the lock held.
    private func startable() -> [FiredAction] {
        var result: [FiredAction] = []
        while running < settings.maximumConcurrent, !queue.isEmpty {
            result.append(queue.removeFirst())
            running += 1
        }
        return result
    }

    private func start(_ action: FiredAction) {
        log.write("fired \(action.binding) (\(action.gesture)): \(Self.quoted(action.command))")
        launcher.launch(action.command, environment: action.environment, timeout: action.timeout) { [self] outcome in
            if !outcome.succeeded {
                log.write("failed \(action.binding): \(Self.quoted(action.command)) \(outcome)")
            }
            condition.lock()
            running -= 1
            finishedCount += 1
            if !outcome.succeeded { failedCount += 1 }
            let starting = startable()
            condition.broadcast()
            condition.unlock()
            starting.forEach(start)
        }
    }

    /// The command as a shell would show it: words with spaces or quotes in single quotes.
    static func quoted(_ command: [String]) -> String {
        command.map { word in
            let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:+,@%".contains($0) }
            return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// `10`, `0.5`: a duration in seconds for messages.
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return GestureEvent.decimalText(value)
    }
}
