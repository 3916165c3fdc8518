import Dispatch
import EvdevInput
import TouchInput

/// Performs input steps on the daemon's virtual keyboard and pointer, in
/// the order they are fired, on its own queue (never blocking the caller).
///
/// A drag holds its button while the swipe moves and releases it
/// ``dragReleaseDelay`` after the fingers lift; a drag that begins again
/// within that time goes on with the button still held, so a finger can be
/// lifted and put down again, as libinput's three-finger drag allows.
public final class InputActionPerformer: @unchecked Sendable {
    /// How long after the fingers lift a drag's button is released: 400 ms.
    public static let dragReleaseDelay: Duration = .milliseconds(400)
    /// Pointer counts per millimetre of finger travel: a 1000 dpi mouse,
    /// the unit libinput's touchpad acceleration starts from.
    public static let countsPerMillimeter = 1000 / 25.4

    private let devices: any VirtualInputDevices
    private let log: DaemonLog
    private let releaseDelay: Duration
    private let queue = DispatchQueue(label: "gestures.input-actions")
    // Confined to `queue`.
    private var held: UInt16?
    private var generation = 0
    private var motion = DragMotion()
    /// Input actions that failed (a drag counts once, at its press).
    private var failures = 0
    /// The last failure logged; the same failure again is counted, not logged,
    /// until a write succeeds (so a missing /dev/uinput is one line, not one a step).
    private var lastLoggedFailure: String?

    /// A performer writing to `devices`, logging failures to `log`.
    public init(devices: any VirtualInputDevices, log: DaemonLog, releaseDelay: Duration = InputActionPerformer.dragReleaseDelay) {
        self.devices = devices
        self.log = log
        self.releaseDelay = releaseDelay
    }

    /// Makes the devices now (a compositor needs a moment to add them), and logs what happened.
    public func prepare() {
        queue.async { [self] in
            if let sentence = devices.prepare() { log.write(sentence) }
        }
    }

    /// Performs `step` for `binding` after the steps before it.
    public func perform(_ step: InputStep, for binding: String) {
        queue.async { [self] in run(step, for: binding) }
    }

    /// How many input actions have failed so far (a key chord, a click, or a
    /// drag whose button could not be pressed each count once).
    public var failedCount: Int {
        queue.sync { failures }
    }

    /// Blocks until every step submitted so far is done (a pending drag
    /// release is not waited for).
    public func waitUntilIdle() {
        queue.sync {}
    }

    private func run(_ step: InputStep, for binding: String) {
        switch step {
        case .keys, .click:
            if !write(step.frames, to: target(of: step), for: binding) { failures += 1 }
        case .dragPress(let button):
            generation += 1
            motion = DragMotion()
            if held == button { return }
            if let other = held { write([[key(other, 0)]], to: .pointer, for: binding) }
            held = nil
            // A drag whose button cannot be pressed fails once: its moves and release are not tried.
            guard write([[key(button, 1)]], to: .pointer, for: binding) else { failures += 1; return }
            held = button
        case .dragMove(let dx, let dy):
            guard held != nil else { return }
            let (x, y) = motion.counts(dxMillimeters: dx, dyMillimeters: dy, perMillimeter: Self.countsPerMillimeter)
            var frame: [InputEvent] = []
            if x != 0 { frame.append(InputEvent(type: EV.REL, code: REL.X, value: x, microseconds: 0)) }
            if y != 0 { frame.append(InputEvent(type: EV.REL, code: REL.Y, value: y, microseconds: 0)) }
            if !frame.isEmpty { write([frame], to: .pointer, for: binding) }
        case .dragRelease:
            guard held != nil else { return }
            let releasing = generation
            let (seconds, attoseconds) = releaseDelay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                guard generation == releasing, let button = held else { return }
                held = nil
                write([[key(button, 0)]], to: .pointer, for: binding)
            }
        }
    }

    private func target(of step: InputStep) -> VirtualInputDevice {
        if case .keys = step { return .keyboard }
        return .pointer
    }

    private func key(_ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(type: EV.KEY, code: code, value: value, microseconds: 0)
    }

    /// Writes `frames`; returns whether it worked. A failure is logged unless
    /// the same failure was the last one logged (nothing has worked since).
    @discardableResult
    private func write(_ frames: [[InputEvent]], to device: VirtualInputDevice, for binding: String) -> Bool {
        do {
            try devices.write(frames, to: device)
            lastLoggedFailure = nil
            return true
        } catch {
            // The error is a sentence of its own (it ends with a period): the note after it is another.
            let reason = "the virtual \(device.rawValue) could not be written to: \(error.description)"
            if reason != lastLoggedFailure {
                let sentence = reason.hasSuffix(".") ? reason : reason + "."
                log.write(
                    "failed \(binding): \(sentence) Input actions that fail the same way are counted in the summary, not logged again.")
                lastLoggedFailure = reason
            }
            return false
        }
    }
}

/// Turns a drag's travel in millimetres into whole pointer counts, carrying
/// the fractions over, so that no motion is lost to rounding.
struct DragMotion: Sendable {
    private var remainder = (x: 0.0, y: 0.0)

    /// The whole counts for `dx`, `dy` millimetres more.
    mutating func counts(dxMillimeters dx: Double, dyMillimeters dy: Double, perMillimeter: Double) -> (Int32, Int32) {
        let x = remainder.x + dx * perMillimeter, y = remainder.y + dy * perMillimeter
        guard x.isFinite, y.isFinite else { remainder = (0, 0); return (0, 0) }
        let wholeX = x.rounded(.towardZero), wholeY = y.rounded(.towardZero)
        remainder = (x - wholeX, y - wholeY)
        return (Int32(clamping: Int64(max(-1e9, min(1e9, wholeX)))), Int32(clamping: Int64(max(-1e9, min(1e9, wholeY)))))
    }
}
