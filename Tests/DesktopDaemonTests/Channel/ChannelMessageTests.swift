import DesktopDaemon
import Foundation
import GestureRecognition
import TestSupport
import Testing
import TouchInput

@Suite struct ChannelMessageTests {
    @Test func aFrameLineHoldsEachContactInMillimetresWithWhatTheDeviceReports() throws {
        var frame = TouchFrame()
        frame.microseconds = 1_250_000
        frame.fingerCount = 2
        frame.contacts = [
            Contact(id: 3, slot: 0, position: Point(x: 12.5, y: 30), pressure: 40),
            Contact(id: 4, slot: 1, position: Point(x: 40.25, y: 31), touchMajor: 300, isPalm: true),
        ]
        let line = ChannelMessage.frame(device: 2, time: .milliseconds(250), frame, published: Date(timeIntervalSince1970: 1)).jsonLine
        #expect(
            line == "{\"frame\":{\"device\":2,\"time_ms\":250,\"fingers\":2,\"buttons\":0,\"contacts\":["
                + "{\"id\":3,\"slot\":0,\"x_mm\":12.5,\"y_mm\":30,\"pressure\":40},"
                + "{\"id\":4,\"slot\":1,\"x_mm\":40.25,\"y_mm\":31,\"touch_major\":300,\"palm\":true}]},\"published_ms\":1000}")
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(object?["frame"] != nil)
    }

    @Test func aDeviceLineGivesItsSizeInMillimetres() throws {
        let pad = try RecordedDevices.rmi4
        let line = ChannelMessage.device(id: 1, pad).jsonLine
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String: Any]])
        let size = try #require(pad.sizeMillimeters)
        #expect((object["device"]?["width_mm"] as? Double).map { abs($0 - size.width) < 0.001 } == true)
        #expect(object["device"]?["name"] as? String == pad.name)
    }

    @Test(arguments: ChannelRequest.allCases) func aRequestReadsBackFromItsLine(_ request: ChannelRequest) {
        #expect(ChannelRequest(line: request.line) == request)
    }

    @Test(arguments: ["", "reload", "{\"request\":\"format the disk\"}", "{\"reload\":true}", "[1]"])
    func aLineThatIsNoKnownRequestIsNone(_ line: String) {
        #expect(ChannelRequest(line: line) == nil)
    }
}
