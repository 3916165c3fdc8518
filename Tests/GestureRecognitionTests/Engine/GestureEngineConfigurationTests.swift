import Foundation
import InputChecks
import Testing

@testable import GestureRecognition

/// Every number an engine configuration file can hold has a range, checked
/// while decoding with one message (issue 16, class 3).
@Suite struct GestureEngineConfigurationTests {
    typealias Configuration = GestureEngine.Configuration

    /// `{"a": {"b": value}}` for the key `a.b`.
    static func json(_ key: String, _ value: String) -> Data {
        let parts = key.split(separator: ".")
        var text = value
        for part in parts.reversed() { text = "{\"\(part)\": \(text)}" }
        return Data(text.utf8)
    }

    static func decode(_ data: Data) throws(JSONText.ReadError) -> Configuration {
        try JSONText.decode(Configuration.self, from: data)
    }

    static let keys = Configuration.numberRanges.keys.sorted()

    @Test("values outside a key's range are refused with the range", arguments: keys)
    func outOfRangeIsRefused(key: String) throws {
        let range = try #require(Configuration.numberRanges[key])
        var bad = ["1e13", "-1e19", "99999999999999999999", "1e308", "-1e308", "\"3\"", "[1]", "{}", "true"]
        bad.append(String(range.minimum - 1))
        bad.append(String(range.maximum + 1))
        if range.wholeNumbers { bad.append(String(range.minimum + 0.5)) }
        for value in bad {
            do {
                _ = try Self.decode(Self.json(key, value))
                Issue.record("\(key) = \(value) was accepted")
            } catch {
                guard case .value(let invalid) = error else { Issue.record("\(key) = \(value): \(error)"); continue }
                #expect(invalid.path == key, "\(key) = \(value): \(invalid)")
                #expect(invalid.message.hasPrefix(range.requirement), "\(key) = \(value): \(invalid)")
            }
        }
    }

    @Test("the ends of every range are accepted", arguments: keys)
    func endsAreAccepted(key: String) throws {
        let range = try #require(Configuration.numberRanges[key])
        for value in [range.minimum, range.maximum] {
            let text = range.wholeNumbers ? String(Int(value)) : String(value)
            #expect(throws: Never.self, "\(key) = \(text)") { _ = try Self.decode(Self.json(key, text)) }
        }
    }

    @Test("every number the configuration holds has a range")
    func everyNumberHasARange() throws {
        var configuration = Configuration()
        configuration.strokeRecognition.orientation = .sensitive
        configuration.touchpadStrokeFingers = 3
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(configuration)) as? [String: Any])
        var numeric: [String] = []
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                for (key, child) in object { walk(child, path.isEmpty ? key : "\(path).\(key)") }
            } else if value is NSNumber {
                numeric.append(path)
            }
        }
        walk(object, "")
        // `swipeDirection.ways` is a choice (4 or 8), not a range; the others are true or false.
        let missing = Set(numeric).subtracting(Configuration.numberRanges.keys).subtracting([
            "swipeDirection.ways", "twoFingerSwipes", "holds",
        ])
        #expect(missing.isEmpty, "no range for \(missing.sorted())")
    }

    @Test("milliseconds at the top of their range convert exactly")
    func millisecondsConvert() throws {
        let configuration = try Self.decode(Data(#"{"holdDelayMilliseconds": 10000, "sequenceTimeoutMilliseconds": 600000}"#.utf8))
        #expect(configuration.holdDelay == .seconds(10))
        #expect(configuration.sequenceTimeout == .seconds(600))
    }

    @Test(
        "the resample count cannot make the recognizer trap or allocate without bound",
        arguments: ["0", "1", "-5", "7", "1025", "100000000", "8.5"])
    func resampleCountIsBounded(value: String) {
        #expect(throws: JSONText.ReadError.self) {
            _ = try Self.decode(Data(#"{"strokeRecognition": {"resampleCount": \#(value)}}"#.utf8))
        }
    }

    @Test func partialStrokeRecognitionKeepsDefaults() throws {
        let configuration = try Self.decode(Data(#"{"strokeRecognition": {"matcher": "protractor"}}"#.utf8))
        #expect(configuration.strokeRecognition.matcher == .protractor)
        #expect(configuration.strokeRecognition.resampleCount == 16)
        #expect(configuration.strokeRecognition.rejectionThreshold == 0.75)
        let sensitive = try Self.decode(Data(#"{"strokeRecognition": {"orientation": {"sensitive": {"toleranceDegrees": 45}}}}"#.utf8))
        #expect(sensitive.strokeRecognition.orientation == .sensitive(toleranceDegrees: 45))
    }

    @Test(
        "choices say what they accept",
        arguments: [
            (
                #"{"strokeRecognition": {"matcher": "best"}}"#,
                "strokeRecognition.matcher: unknown matcher 'best'; expected one of dollar1, protractor, elastic"
            ),
            (#"{"swipeDirection": {"ways": 5}}"#, "swipeDirection.ways: must be 4 or 8"),
            (#"{"twoFingerSwipes": "yes"}"#, "twoFingerSwipes: must be true or false"),
            (#"{"touchpadStrokeFingers": 9}"#, "touchpadStrokeFingers: must be an integer between 1 and 5, or null for none"),
            (
                #"{"sequences": [{"name": "a", "directions": ["le]ft"]}]}"#,
                "sequences[0].directions[0]: unknown direction 'le]ft'; did you mean 'left'? expected one of up, up_right, right, down_right, down, down_left, left, up_left"
            ),
            (#"{"sequences": [{"directions": ["up"]}]}"#, "sequences[0].name: is required"),
            (#"{"sequences": 3}"#, "sequences: must be a list of sequences"),
            (
                #"{"sequences": [{"name": "a", "directions": ["rihgt"]}]}"#,
                "sequences[0].directions[0]: unknown direction 'rihgt'; did you mean 'right'? expected one of up, up_right, right, down_right, down, down_left, left, up_left"
            ),
            (
                #"{"strokeRecognition": {"matcher": "protracter"}}"#,
                "strokeRecognition.matcher: unknown matcher 'protracter'; did you mean 'protractor'? expected one of dollar1, protractor, elastic"
            ),
            (
                #"{"strokeRecognition": {"orientation": "upright"}}"#,
                #"strokeRecognition.orientation: must be {"invariant": {}} or {"sensitive": {"toleranceDegrees": 0 to 180}}"#
            ),
        ])
    func choicesSayWhatTheyAccept(json: String, expected: String) {
        do {
            _ = try Self.decode(Data(json.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test("sequences longer than the limit are refused before their directions are read")
    func longSequencesAreRefused() {
        let directions = Array(repeating: #""up""#, count: 20_000).joined(separator: ",")
        do {
            _ = try Self.decode(Data(#"{"sequences": [{"name": "a", "directions": [\#(directions)]}]}"#.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.description == "sequences[0].directions: has 20000 directions, over the limit of 32")
        }
        let many = Array(repeating: #"{"name": "a", "directions": ["up"]}"#, count: 101).joined(separator: ",")
        #expect(throws: JSONText.ReadError.self) { _ = try Self.decode(Data(#"{"sequences": [\#(many)]}"#.utf8)) }
        let most = (0..<32).map { _ in #""left""# }.joined(separator: ",")
        #expect(throws: Never.self) { _ = try Self.decode(Data(#"{"sequences": [{"name": "a", "directions": [\#(most)]}]}"#.utf8)) }
    }
}
