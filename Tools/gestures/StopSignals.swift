import Dispatch
import EvdevInput
import Foundation

/// SIGINT and SIGTERM, turned into a wake-up of a reader: the signals are
/// ignored by the process and delivered by Dispatch on its own queue, so no
/// work happens in a signal handler.
struct StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(waker: EvdevReader.Waker, signals: [Int32] = [SIGINT, SIGTERM]) {
        self.init(signals: signals) { waker.wake() }
    }

    init(signals: [Int32] = [SIGINT, SIGTERM], _ action: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "gestures.signals")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { action() }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
