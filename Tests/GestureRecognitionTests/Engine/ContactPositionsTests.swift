import Testing

@testable import GestureRecognition

@Suite struct ContactPositionsTests {
    typealias Contact = TransformState.Contact

    static func contacts(_ ids: [Int]) -> InlineList<Contact> {
        var list = InlineList<Contact>()
        for id in ids { list.append(Contact(id: id, position: Point(x: Double(id), y: 0))) }
        return list
    }

    @Test func theFirstPositionOfAnIDCounts() {
        var contacts = Self.contacts([1, 2])
        contacts.append(Contact(id: 1, position: Point(x: 50, y: 50)))
        let positions = ContactPositions(contacts)
        #expect(positions.count == 2)
        #expect(positions[1] == Point(x: 1, y: 0))
        #expect(positions[3] == nil)
    }

    @Test func settingReplacesOrAdds() {
        var positions = ContactPositions(Self.contacts([1]))
        positions.set(Point(x: 9, y: 9), for: 1, touching: Self.contacts([1]))
        positions.set(Point(x: 4, y: 4), for: 2, touching: Self.contacts([1, 2]))
        #expect(positions[1] == Point(x: 9, y: 9))
        #expect(positions[2] == Point(x: 4, y: 4))
    }

    @Test func whenFullTheOldestLiftedIDMakesRoom() {
        let capacity = InlineList<Contact>.capacity
        var positions = ContactPositions(Self.contacts(Array(0..<capacity)))
        // Contacts 0 and 1 have lifted; 2 and later still touch, with the newcomer.
        let touching = Self.contacts(Array(2..<capacity) + [100])
        positions.set(Point(x: 100, y: 0), for: 100, touching: touching)
        #expect(positions[0] == nil, "the oldest lifted one goes")
        #expect(positions[1] == Point(x: 1, y: 0))
        #expect(positions[100] == Point(x: 100, y: 0))
        // With every kept id touching, a newcomer is not kept.
        let all = Self.contacts(Array(1..<capacity) + [100])
        positions.set(Point(x: 5, y: 5), for: 200, touching: all)
        #expect(positions[200] == nil)
        #expect(positions[100] == Point(x: 100, y: 0))
        #expect(positions.count == capacity)
    }
}
