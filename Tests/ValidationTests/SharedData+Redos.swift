import Foundation
import TestSupport
import Validation

extension SharedData {
    /// `redos/corpus.json` in the shared data, when it exists.
    static var redosCorpus: URL? { url("redos/corpus.json") }
}
