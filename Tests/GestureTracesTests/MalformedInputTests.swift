import Foundation
import GestureTraces
import Testing

/// Each file in `Malformed/` fails with one clear error naming the file and,
/// where it applies, the line.
@Suite struct MalformedInputTests {
    static let expectations: [(file: String, kind: TraceError.Kind, line: Int?)] = [
        ("truncated-line.jsonl", .truncated, 3),
        ("missing-end-line.jsonl", .truncated, 3),
        ("version-3.jsonl", .unsupportedVersion(found: 3), 1),
        ("version-as-string.jsonl", .malformedHeader("'format' must be a string and 'version' an integer"), 1),
        ("not-a-trace.jsonl", .notATrace, 1),
        ("huge-value.jsonl", .numberOutOfRange("event value 99999999999"), 2),
        ("huge-time.jsonl", .numberOutOfRange("'t'"), 2),
        ("nan-value.jsonl", .malformedFrame("event value must be an integer at 'N'"), 2),
        ("fractional-time.jsonl", .malformedFrame("'t' must be an integer, not a fraction or exponent"), 2),
        ("unknown-device.jsonl", .unknownDevice(index: 3, deviceCount: 1), 2),
        ("too-many-slots.jsonl", .tooManySlots(found: 100_001, limit: 64), 1),
        ("count-mismatch.jsonl", .countMismatch(what: "frames", declared: 5, found: 2), 4),
        ("data-after-end.jsonl", .dataAfterEnd, 4),
        ("short-device-id.jsonl", .malformedHeader("device 0 'id' must be [bus, vendor, product, version]"), 1),
        ("empty.jsonl", .emptyFile, nil),
        ("garbage.bin", .malformedYAML("control characters are not allowed at column 1"), 1),
        ("bad-hex.events", .malformedEvemuLine("event type '00zz' is not hexadecimal"), 4),
        ("huge-value.events", .numberOutOfRange("event value 99999999999"), 4),
        ("no-description.events", .missingDeviceDescription(expected: "no-description.desc"), nil),
        ("libinput-version-2.yml", .unsupportedRecordVersion(found: "2"), 1),
        (
            "libinput-unclosed-list.yml",
            .malformedYAML(
                "did not find expected ',' or ']' at column 9, in '  events: []'; likely fix: close the '[' opened on line 6, column 9 with ']'"
            ),
            7
        ),
        ("libinput-nan-value.yml", .invalidValue(key: "event", reason: "holds something that is not an integer"), 9),
        ("libinput-no-devices.yml", .missingKey("devices"), nil),
    ]

    @Test(arguments: expectations.map(\.file))
    func failsWithOneClearError(file: String) throws {
        let expected = try #require(Self.expectations.first { $0.file == file })
        let url = SharedRecordings.malformed.appendingPathComponent(file)
        let error = try #require(throws: TraceError.self) { try Trace.load(contentsOf: url) }
        #expect(error.kind == expected.kind)
        #expect(error.line == expected.line)
        #expect(error.file == url.path)
        #expect(error.description.hasPrefix(url.path))
        #expect(error.description.hasSuffix("."))
        #expect(!error.description.dropLast().contains("\n"))
    }

    @Test func everyCorpusFileHasAnExpectation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: SharedRecordings.malformed.path)
        #expect(Set(files) == Set(Self.expectations.map(\.file)))
    }
}
