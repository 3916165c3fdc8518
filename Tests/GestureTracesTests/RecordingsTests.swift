import Foundation
import GestureRecognition
import GestureTraces
import Testing
import TouchInput

/// Every shared recording imports, and what the decoder makes of it matches
/// what the file name says it holds.
@Suite(
    .enabled(
        if: SharedRecordings.isAvailable,
        "shared recordings not found: set GESTURES_SHARED_DATA or check out ../shared/data"))
struct RecordingsTests {
    /// Recordings stopped before the last finger lifted: bcm5974's last
    /// frames still report one zero-sized contact (touch major 0) and no BTN_TOOL key.
    static let endingMidTouch = ["bcm5974.three-finger-click"]
    /// Recordings whose device reports positions past the range it
    /// advertises, and how far (mm): the xorg-integration-tests Synaptics pad
    /// says ABS_Y 1408-4448 but sends up to 4654 in two-finger-scroll-up
    /// (and 4793 in ScrollButtons), 3.4-5.7 mm past the edge, as Synaptics
    /// pads do (libinput keeps quirks for it).
    static let pastAdvertisedRange = ["xit/SynPS2-Synaptics-TouchPad-": 6.0]

    @Test(arguments: try SharedRecordings.files())
    func importsWithTheDeviceKindOfItsFolder(file: String) throws {
        let trace = try Trace.load(contentsOf: SharedRecordings.url(file))
        #expect(trace.devices.count == 1)
        let device = try #require(trace.devices.first)
        #expect(device.kind == (file.hasPrefix("touchpads/") ? .touchpad : .touchscreen))
        #expect(!device.name.isEmpty)
        let size = try #require(device.sizeMillimeters)
        #expect(size.width > 40 && size.width < 300 && size.height > 30 && size.height < 300)
        if file.hasSuffix(".desc") {
            #expect(trace.frames.isEmpty)
        } else {
            #expect(trace.frames.count > 3)
            #expect(trace.frames.dropLast().allSatisfy { $0.events.last?.isSynReport == true })
        }
    }

    @Test(arguments: try SharedRecordings.files().filter { $0.hasSuffix(".events") })
    func decodedContactsStayOnTheSurfaceAndEndLifted(file: String) throws {
        let trace = try Trace.load(contentsOf: SharedRecordings.url(file))
        let size = try #require(trace.devices[0].sizeMillimeters)
        var decoder = MultitouchDecoder(device: trace.devices[0])
        var last = TouchFrame()
        for event in trace.frames.flatMap(\.events) {
            guard let frame = decoder.process(event) else { continue }
            let slack = 1 + (Self.pastAdvertisedRange.first { file.contains($0.key) }?.value ?? 0)
            for contact in frame.contacts {
                #expect(contact.position.isFinite)
                #expect(contact.position.x >= -slack && contact.position.x <= size.width + slack, "\(contact)")
                #expect(contact.position.y >= -slack && contact.position.y <= size.height + slack, "\(contact)")
            }
            #expect(frame.fingerCount >= frame.contacts.count)
            last = frame
        }
        if !Self.endingMidTouch.contains(where: file.contains) {
            #expect(last.contacts.isEmpty && last.fingerCount == 0, "the recording ends with every finger lifted")
        }
    }

    @Test(arguments: try SharedRecordings.files().filter { $0.hasSuffix(".events") })
    func holdsWhatItsNameSays(file: String) throws {
        let trace = try Trace.load(contentsOf: SharedRecordings.url(file))
        let summary = try #require(trace.summary().devices.first)
        // What the file holds is named after the device name, at the first dot.
        let name = String(file.split(separator: "/").last!.split(separator: ".", maxSplits: 1).last!).lowercased()
        let seconds = Double(trace.durationMicroseconds) / 1e6
        let paths = Array(summary.paths.values)
        func fingers(in name: String) -> Int? {
            for (words, count) in [
                (["one_finger", "1-finger"], 1), (["two_finger", "2-finger", "two-finger"], 2),
                (["three_finger", "three-finger"], 3), (["4-finger"], 4),
            ]
            where words.contains(where: name.contains) { return count }
            return nil
        }
        if let count = fingers(in: name) {
            #expect(summary.maximumFingers == count, "\(file): most fingers at once")
        }
        if name.contains("tap") {
            #expect(seconds < 0.3, "a tap is short")
            // Semi-MT pads report a bounding-box corner that moves when fingers land, so only check real MT.
            if summary.contactProtocol != .singleTouch {
                #expect(paths.allSatisfy { $0.length < 5 }, "a tap barely moves")
            }
        }
        if name.contains("touch-release") {
            #expect(summary.maximumContacts == 2)
            #expect(paths.allSatisfy { $0.displacement.distance(to: .zero) < 5 }, "fingers rest, then lift")
        }
        if name.contains("vert-scroll") {
            #expect(summary.maximumContacts == 2)
            let moving = paths.filter { $0.length > 10 }
            #expect(moving.count == 2, "both fingers scroll")
            for path in moving {
                let extent = path.maximum - path.minimum
                #expect(extent.y > 2 * extent.x, "scrolling is mostly vertical: \(extent)")
            }
        }
        if name.contains("drag-down") {
            #expect(summary.maximumContacts == 4)
            let dragged = paths.filter { $0.frames > 5 }
            #expect(dragged.count == 4)
            for path in dragged {
                #expect(path.displacement.y > 10, "each finger moves down: \(path.displacement)")
                #expect(path.displacement.y > 2 * abs(path.displacement.x))
            }
        }
        if name.contains("drag-up-down") {
            #expect(paths.count == 1)
            let path = try #require(paths.first)
            #expect(path.first.y - path.minimum.y > 20, "first up")
            #expect(path.last.y - path.minimum.y > 20, "then down")
        }
        if name.contains("click") || name.contains("press") {
            var decoder = MultitouchDecoder(device: trace.devices[0])
            let pressed = trace.frames.flatMap(\.events).compactMap { decoder.process($0) }.contains { !$0.buttons.isEmpty }
            #expect(pressed, "a click presses a button")
        }
    }

    @Test(arguments: try SharedRecordings.files())
    func jsonRoundTripIsLossless(file: String) throws {
        let trace = try Trace.load(contentsOf: SharedRecordings.url(file))
        let json = trace.jsonData()
        #expect(try Trace.decode(json) == trace)
    }

    @Test(arguments: try SharedRecordings.files())
    func jsonToLibinputRecordToJSONIsLossless(file: String) throws {
        let trace = try Trace.load(contentsOf: SharedRecordings.url(file))
        let json = trace.jsonData()
        let yaml = try Trace.decode(json).encoded(as: .libinput)
        #expect(TraceFormat.detect(yaml) == .libinput)
        let back = try Trace.decode(yaml)
        #expect(back == trace)
        #expect(back.jsonData() == json)
    }

    @Test(arguments: try SharedRecordings.files())
    func jsonToEvemuToJSONIsLossless(file: String) throws {
        let trace = try Trace.load(contentsOf: SharedRecordings.url(file))
        let json = trace.jsonData()
        let evemu = try Trace.decode(json).encoded(as: .evemu)
        #expect(TraceFormat.detect(evemu) == .evemu)
        let back = try Trace.decode(evemu)
        #expect(back == trace)
        #expect(back.jsonData() == json)
    }

    @Test func eventsWithoutHeaderPairWithTheLongestDescTheirNameBeginsWith() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pairing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["Pad.desc", "Pad-Two.desc", "Other.desc"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        func pair(_ name: String) -> String { Trace.siblingDescription(of: folder.appendingPathComponent(name)).lastPathComponent }
        #expect(pair("Pad-tap.events") == "Pad.desc")
        #expect(pair("Pad-Two-scroll.events") == "Pad-Two.desc")
        #expect(pair("Pad_move.events") == "Pad.desc")
        #expect(pair("Padding-tap.events") == "Padding-tap.desc", "a prefix must end at a separator")
        #expect(pair("Other.tap.events") == "Other.desc")
    }
}
