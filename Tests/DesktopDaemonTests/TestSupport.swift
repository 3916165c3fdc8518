import DesktopDaemon
import Foundation
import GestureRecognition
import Synchronization

/// A log that keeps its lines.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var log: DaemonLog { DaemonLog { [self] line in lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
}

/// A launcher that records what it was asked to run and finishes each
/// command at once with `outcome`, or holds it until ``finishAll()`` when
/// `holding`.
final class RecordingLauncher: ProcessLauncher {
    private struct State {
        var launched: [[String]] = []
        var held: [@Sendable (CommandOutcome) -> Void] = []
    }
    private let state = Mutex(State())
    let outcome: CommandOutcome
    let holding: Bool

    init(outcome: CommandOutcome = .exited(0), holding: Bool = false) {
        self.outcome = outcome
        self.holding = holding
    }

    func launch(
        _ command: [String], environment: [String: String], timeout: Duration,
        completion: @escaping @Sendable (CommandOutcome) -> Void
    ) {
        let hold = state.withLock { state in
            state.launched.append(command)
            if holding { state.held.append(completion) }
            return holding
        }
        if !hold { completion(outcome) }
    }

    var launched: [[String]] { state.withLock { $0.launched } }

    /// Finishes every held command, including those started meanwhile.
    func finishAll() {
        while true {
            let held = state.withLock { state in
                defer { state.held = [] }
                return state.held
            }
            if held.isEmpty { return }
            held.forEach { $0(outcome) }
        }
    }
}

/// Synthetic gesture streams.
enum Stream {
    static func swipe(
        fingers: Int, steps: [(Double, Double)], direction: SwipeDirection?, cancelled: Bool = false,
        edge: GestureEvent.Edge? = nil
    ) -> [GestureEvent] {
        var events = [GestureEvent(type: .swipe, phase: .begin, time: .zero, fingers: fingers, edge: edge)]
        for (index, step) in steps.enumerated() {
            events.append(
                GestureEvent(
                    type: .swipe, phase: .update, time: .milliseconds(10 * (index + 1)), fingers: fingers,
                    dxMillimeters: step.0, dyMillimeters: step.1, edge: edge))
        }
        let last = steps.last ?? (0, 0)
        events.append(
            GestureEvent(
                type: .swipe, phase: .end, time: .milliseconds(10 * (steps.count + 1)), fingers: fingers,
                cancelled: cancelled, direction: direction, dxMillimeters: last.0, dyMillimeters: last.1, edge: edge))
        return events
    }

    static func pinch(fingers: Int, steps: [(scale: Double, angle: Double)], cancelled: Bool = false) -> [GestureEvent] {
        var events = [GestureEvent(type: .pinch, phase: .begin, time: .zero, fingers: fingers)]
        for (index, step) in steps.enumerated() {
            events.append(
                GestureEvent(
                    type: .pinch, phase: .update, time: .milliseconds(10 * (index + 1)), fingers: fingers,
                    scale: step.scale, angleDegrees: step.angle))
        }
        let last = steps.last ?? (1, 0)
        events.append(
            GestureEvent(
                type: .pinch, phase: .end, time: .milliseconds(10 * (steps.count + 1)), fingers: fingers,
                cancelled: cancelled, scale: last.scale, angleDegrees: last.angle))
        return events
    }
}

func configuration(_ json: String) throws -> DaemonConfiguration {
    try DaemonConfiguration.decode(Data(json.utf8), format: .json)
}
