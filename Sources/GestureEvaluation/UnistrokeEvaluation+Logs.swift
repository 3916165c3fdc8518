import Foundation
import GestureRecognition
import GestureTraces

extension UnistrokeEvaluation {
    /// The labelled strokes of every $-family XML log under `directory`, laid
    /// out as `<subject>/<speed>/<gesture><NN>.xml` (the $1 study's layout): a
    /// log's own subject and speed come first, the folder names otherwise.
    ///
    /// - Throws: `DollarGestureLog.ReadError` for a log that cannot be read.
    public static func samples(under directory: URL) throws -> [Sample] {
        try DollarGestureLog.logs(under: directory).map { url, log in
            let speedFolder = url.deletingLastPathComponent()
            return Sample(
                gesture: log.gestureName,
                subject: log.subject ?? speedFolder.deletingLastPathComponent().lastPathComponent,
                speed: log.speed ?? speedFolder.lastPathComponent,
                points: log.points)
        }
    }
}
