import Foundation
import Testing

@testable import GestureRecognition

private typealias Contact = TransformState.Contact

private let tolerance = 1e-9

/// `count` contacts with ids 0..<count evenly spread on a circle of `radius`
/// mm about `center`, the first at `phaseDegrees` clockwise from the positive
/// x axis (y grows downwards).
private func ring(
    _ count: Int, center: Point = Point(x: 50, y: 40), radius: Double, phaseDegrees: Double = 0
) -> [Contact] {
    (0..<count).map { index in
        let degrees = phaseDegrees + 360 * Double(index) / Double(count)
        let radians = degrees * Double.pi / 180
        return Contact(id: index, position: center + Point(x: cos(radians), y: sin(radians)) * radius)
    }
}

private func isClose(_ a: Double, _ b: Double, within limit: Double = tolerance) -> Bool {
    abs(a - b) <= limit * max(1, abs(a), abs(b))
}

private func isClose(_ a: Point, _ b: Point, within limit: Double = tolerance) -> Bool {
    isClose(a.x, b.x, within: limit) && isClose(a.y, b.y, within: limit)
}

private func isFinite(_ state: TransformState) -> Bool {
    state.translationMillimeters.isFinite && state.scale.isFinite && state.scale > 0
        && state.rotationDegrees.isFinite
}

@Suite
struct TransformStateTests {
    // MARK: Pinch

    @Test(arguments: 2...5, [0.5, 2.0])
    func pinchScalesBySpreadRelativeToTheStart(fingers: Int, finalFactor: Double) {
        let startRadius = 12.0
        var state = TransformState(contacts: ring(fingers, radius: startRadius, phaseDegrees: 17))
        let steps = 10
        for step in 1...steps {
            let previous = startRadius * (1 + (finalFactor - 1) * Double(step - 1) / Double(steps))
            let radius = startRadius * (1 + (finalFactor - 1) * Double(step) / Double(steps))
            let delta = state.update(ring(fingers, radius: radius, phaseDegrees: 17))
            #expect(isClose(delta.scaleRatio, radius / previous), "step \(step)")
            #expect(abs(delta.rotationDegrees) < 1e-9)
            #expect(isClose(delta.translationMillimeters, .zero))
        }
        #expect(isClose(state.scale, finalFactor))
        #expect((state.scale > 1) == (finalFactor > 1))
        #expect(abs(state.rotationDegrees) < 1e-9)
        #expect(isClose(state.spreadMillimeters, startRadius * finalFactor))
    }

    @Test(arguments: 3...5)
    func oneFingerMovingAloneChangesScaleLessThanAPairWould(fingers: Int) {
        var state = TransformState(contacts: ring(fingers, radius: 10))
        var moved = ring(fingers, radius: 10)
        moved[0].position = Point(x: 50, y: 40) + (moved[0].position - Point(x: 50, y: 40)) * 2
        state.update(moved)
        // Two fingers with one moving out to twice the radius would give 1.5.
        #expect(state.scale > 1)
        #expect(state.scale < 1.5)
    }

    // MARK: Rotation

    @Test(arguments: 2...5, [1.0, -1.0])
    func rotationIsSignedClockwisePositive(fingers: Int, sign: Double) {
        var state = TransformState(contacts: ring(fingers, radius: 15))
        let step = 7.5 * sign
        for index in 1...12 {
            let delta = state.update(ring(fingers, radius: 15, phaseDegrees: step * Double(index)))
            #expect(isClose(delta.rotationDegrees, step), "step \(index)")
            #expect(isClose(delta.scaleRatio, 1))
        }
        #expect(isClose(state.rotationDegrees, 90 * sign))
        #expect(isClose(state.scale, 1))
        #expect(isClose(state.translationMillimeters, .zero))
    }

    @Test func rightFingerMovingDownIsClockwiseAndPositive() {
        var state = TransformState(contacts: [
            Contact(id: 1, position: Point(x: 40, y: 30)),
            Contact(id: 2, position: Point(x: 60, y: 30)),
        ])
        // y grows downwards: the right finger goes down, the left one up.
        let delta = state.update([
            Contact(id: 1, position: Point(x: 40, y: 28)),
            Contact(id: 2, position: Point(x: 60, y: 32)),
        ])
        #expect(delta.rotationDegrees > 0)
        #expect(isClose(delta.rotationDegrees, atan2(4.0, 20.0) * 180 / Double.pi))
    }

    @Test(arguments: 2...5, [1.0, -1.0])
    func multiTurnRotationAccumulatesWithoutJumps(fingers: Int, sign: Double) {
        var state = TransformState(contacts: ring(fingers, radius: 20, phaseDegrees: 5))
        let step = 25.0 * sign  // 43.2 steps per 3 turns: crosses +-180 at odd angles
        var previousTotal = 0.0
        for index in 1...44 {
            state.update(ring(fingers, radius: 20, phaseDegrees: 5 + step * Double(index)))
            let total = state.rotationDegrees
            #expect(isClose(total - previousTotal, step, within: 1e-7), "step \(index)")
            previousTotal = total
        }
        #expect(isClose(state.rotationDegrees, step * 44, within: 1e-7))
        #expect(abs(state.rotationDegrees) > 1080)
    }

    @Test(arguments: 2...5)
    func rotationScaleAndTranslationTogetherAreEachRecovered(fingers: Int) {
        let start = Point(x: 30, y: 30)
        var state = TransformState(contacts: ring(fingers, center: start, radius: 10))
        let steps = 20
        let shift = Point(x: 1.5, y: -0.75)
        for index in 1...steps {
            let t = Double(index)
            state.update(ring(fingers, center: start + shift * t, radius: 10 * (1 + 0.05 * t), phaseDegrees: -12 * t))
        }
        let total = Double(steps)
        #expect(isClose(state.translationMillimeters, shift * total, within: 1e-7))
        #expect(isClose(state.scale, 1 + 0.05 * total))
        #expect(isClose(state.rotationDegrees, -12 * total, within: 1e-7))
        #expect(isClose(state.centroid!, start + shift * total, within: 1e-7))
    }

    @Test func contactAtTheCentroidDoesNotDisturbRotation() {
        let center = Point(x: 50, y: 40)
        func frame(_ degrees: Double) -> [Contact] {
            ring(2, center: center, radius: 15, phaseDegrees: degrees) + [Contact(id: 9, position: center)]
        }
        var state = TransformState(contacts: frame(0))
        let delta = state.update(frame(30))
        #expect(isClose(delta.rotationDegrees, 30))
    }

    // MARK: Translation

    @Test(arguments: 1...5)
    func translationFollowsTheCentroid(fingers: Int) {
        var state = TransformState(contacts: ring(fingers, radius: 8))
        let move = Point(x: -3, y: 4)
        for index in 1...5 {
            let delta = state.update(ring(fingers, center: Point(x: 50, y: 40) + move * Double(index), radius: 8))
            #expect(isClose(delta.translationMillimeters, move))
        }
        #expect(isClose(state.translationMillimeters, move * 5))
        #expect(isClose(state.scale, 1))
        #expect(abs(state.rotationDegrees) < 1e-9)
    }

    // MARK: Joining and leaving

    @Test(arguments: 2...4)
    func contactJoiningDoesNotJumpAndTotalsContinue(fingers: Int) {
        var state = TransformState(contacts: ring(fingers, radius: 10))
        state.update(ring(fingers, radius: 15, phaseDegrees: 20))
        let before = (state.translationMillimeters, state.scale, state.rotationDegrees)

        // A finger lands far from the others while they hold still.
        let joined = ring(fingers, radius: 15, phaseDegrees: 20) + [Contact(id: 100, position: Point(x: 90, y: 5))]
        let delta = state.update(joined)
        #expect(delta == .identity)
        #expect(state.translationMillimeters == before.0)
        #expect(state.scale == before.1)
        #expect(state.rotationDegrees == before.2)
        #expect(state.contacts.count == fingers + 1)

        // Everyone spreads twice as far from the new centroid: the scale doubles from where it was.
        let center = state.centroid!
        let spread = joined.map { Contact(id: $0.id, position: center + ($0.position - center) * 2) }
        let next = state.update(spread)
        #expect(isClose(next.scaleRatio, 2))
        #expect(isClose(state.scale, before.1 * 2))
        #expect(isClose(state.rotationDegrees, before.2))
    }

    @Test(arguments: 3...5)
    func contactLeavingDoesNotJumpAndTotalsContinue(fingers: Int) {
        var state = TransformState(contacts: ring(fingers, radius: 10))
        state.update(ring(fingers, radius: 12, phaseDegrees: -15))
        let before = (state.translationMillimeters, state.scale, state.rotationDegrees)

        let remaining = Array(ring(fingers, radius: 12, phaseDegrees: -15).dropFirst())
        let delta = state.update(remaining)
        #expect(delta == .identity)
        #expect(state.translationMillimeters == before.0)
        #expect(state.scale == before.1)
        #expect(state.rotationDegrees == before.2)

        let center = state.centroid!
        let turned = remaining.map { contact -> Contact in
            let r = contact.position - center
            // A quarter turn clockwise on screen: (x, y) -> (-y, x) in y-down coordinates.
            return Contact(id: contact.id, position: center + Point(x: -r.y, y: r.x))
        }
        let next = state.update(turned)
        #expect(isClose(next.rotationDegrees, 90))
        #expect(isClose(state.rotationDegrees, before.2 + 90))
        #expect(isClose(state.scale, before.1))
    }

    @Test(arguments: 2...5)
    func contactReplacedInOneFrameDoesNotJump(fingers: Int) {
        let contacts = ring(fingers, radius: 10)
        var state = TransformState(contacts: contacts)
        var replaced = contacts
        replaced[0] = Contact(id: 42, position: Point(x: 0, y: 0))
        let delta = state.update(replaced)
        #expect(delta == .identity)
        #expect(state.contacts.map(\.id) == replaced.map(\.id).sorted())
    }

    // MARK: Degenerate input

    @Test func noContactsGiveTheIdentity() {
        var state = TransformState()
        #expect(state.update([]) == .identity)
        #expect(state.centroid == nil)
        #expect(state.spreadMillimeters == 0)
        #expect(state.update(ring(3, radius: 5)) == .identity, "the first contacts are the start")
        #expect(state.update([]) == .identity)
        #expect(state.scale == 1 && state.rotationDegrees == 0 && state.translationMillimeters == .zero)
    }

    @Test func singleContactTranslatesButNeverScalesOrRotates() {
        var state = TransformState(contacts: [Contact(id: 1, position: Point(x: 10, y: 10))])
        let delta = state.update([Contact(id: 1, position: Point(x: 13, y: 6))])
        #expect(delta.translationMillimeters == Point(x: 3, y: -4))
        #expect(delta.scaleRatio == 1 && delta.rotationDegrees == 0)
        #expect(state.spreadMillimeters == 0)
    }

    @Test(arguments: 2...5)
    func coincidentContactsLeaveScaleAndRotationUnchanged(fingers: Int) {
        let spot = Point(x: 20, y: 20)
        var state = TransformState(contacts: ring(fingers, radius: 10))
        // Pinched onto one spot, then apart again at a different angle.
        for frame in [
            (0..<fingers).map { Contact(id: $0, position: spot) },
            (0..<fingers).map { Contact(id: $0, position: spot + Point(x: 1e-4, y: 0)) },
            ring(fingers, center: spot, radius: 10, phaseDegrees: 90),
        ] {
            let delta = state.update(frame)
            #expect(delta.scaleRatio == 1)
            #expect(delta.rotationDegrees == 0)
            #expect(isFinite(state))
        }
        #expect(state.scale == 1 && state.rotationDegrees == 0)
        #expect(isClose(state.translationMillimeters, spot - Point(x: 50, y: 40)))
    }

    @Test(arguments: 2...5)
    func nonFiniteContactsAreIgnored(fingers: Int) {
        var state = TransformState(contacts: ring(fingers, radius: 10))
        let bad = [
            Contact(id: 50, position: Point(x: .nan, y: 1)),
            Contact(id: 51, position: Point(x: 1, y: .infinity)),
            Contact(id: 52, position: Point(x: -.infinity, y: .nan)),
        ]
        let delta = state.update(ring(fingers, radius: 20) + bad)
        #expect(isClose(delta.scaleRatio, 2))
        #expect(state.contacts.count == fingers)
        // A known contact turning NaN counts as having left.
        var broken = ring(fingers, radius: 20)
        broken[0].position = Point(x: .nan, y: .nan)
        state.update(broken)
        #expect(state.contacts.count == fingers - 1)
        #expect(isFinite(state))
        #expect(isClose(state.scale, 2))
    }

    @Test func hugeCoordinatesGiveFiniteValues() {
        var state = TransformState(contacts: [
            Contact(id: 0, position: Point(x: -1e308, y: 0)),
            Contact(id: 1, position: Point(x: 1e308, y: 0)),
        ])
        state.update([
            Contact(id: 0, position: Point(x: -1.7e308, y: 1e308)),
            Contact(id: 1, position: Point(x: 1.7e308, y: -1e308)),
        ])
        #expect(isFinite(state))
        #expect(state.lastDelta.scaleRatio.isFinite && state.lastDelta.rotationDegrees.isFinite)
        #expect(state.centroid?.isFinite == true)
        #expect(!state.spreadMillimeters.isNaN)
    }

    @Test func repeatedIdCountsOnlyItsFirstContact() {
        var state = TransformState(contacts: ring(2, radius: 10))
        let delta = state.update(ring(2, radius: 10) + [Contact(id: 0, position: Point(x: 500, y: 500))])
        #expect(delta == .identity)
        #expect(state.contacts.count == 2)
    }

    @Test func rebaseKeepsTheTotalsAndCountsNoChange() {
        var state = TransformState(contacts: ring(2, radius: 10))
        state.update(ring(2, radius: 20))
        #expect(abs(state.scale - 2) < 1e-9)
        // Slot 0 jumps onto slot 1: not motion.
        state.rebase([Contact(id: 0, position: Point(x: 30, y: 0)), Contact(id: 1, position: Point(x: 30, y: 0))])
        #expect(abs(state.scale - 2) < 1e-9)
        #expect(state.translationMillimeters == .zero)
        #expect(state.lastDelta == .identity)
        #expect(state.spreadMillimeters == 0)
        // The next update compares with the rebased contacts.
        let delta = state.update([Contact(id: 0, position: Point(x: 31, y: 0)), Contact(id: 1, position: Point(x: 31, y: 0))])
        #expect(delta.translationMillimeters == Point(x: 1, y: 0))
    }

    // MARK: Issue 16, class 6: a scale that ratchets

    @Test("a spread that alternates between huge, nothing and tiny does not ratchet the scale", arguments: 2...5)
    func alternatingSpreadDoesNotRatchet(fingers: Int) {
        let center = Point(x: 50, y: 40)
        var state = TransformState(contacts: ring(fingers, center: center, radius: 20))
        for _ in 0..<200 {
            state.update(ring(fingers, center: center, radius: 400))
            state.update((0..<fingers).map { Contact(id: $0, position: center) })
            state.update(ring(fingers, center: center, radius: 0.05))
        }
        // Each return to 400 mm is compared with the last real spread (400 mm).
        #expect(isClose(state.scale, 20))
        #expect(TransformState.scaleRange.contains(state.scale))
    }

    @Test("a spread under the minimum is no pinch")
    func tinySpreadIsNoPinch() {
        var state = TransformState(contacts: ring(2, radius: 0.5))
        let delta = state.update(ring(2, radius: 1.5, phaseDegrees: 40))
        #expect(delta.scaleRatio == 1 && delta.rotationDegrees == 0)
        #expect(state.scale == 1 && state.rotationDegrees == 0)
    }

    @Test("the scale stays within its range whatever the contacts do")
    func scaleIsBounded() {
        // Fingers that join and leave, so each ratio is measured on another pair.
        var generator = LinearCongruential(seed: 16)
        var state = TransformState()
        for step in 0..<20_000 {
            var contacts: [Contact] = []
            for id in 0..<5 where generator.next() % 3 != 0 {
                let radius = generator.next() % 2 == 0 ? 2.5 : 5_000
                let angle = Double(generator.next() % 360) * .pi / 180
                contacts.append(Contact(id: id + (step % 7 == 0 ? 10 : 0), position: Point(x: radius * cos(angle), y: radius * sin(angle))))
            }
            state.update(contacts)
            #expect(TransformState.scaleRange.contains(state.scale))
            if !TransformState.scaleRange.contains(state.scale) { break }
        }
        #expect(isFinite(state))
    }

    @Test func moreContactsThanItFollowsKeepTheLowestIDs() {
        let limit = TransformState.maximumContacts
        let many = (0..<(limit + 3)).reversed().map { Contact(id: $0, position: Point(x: Double($0), y: 10)) }
        let state = TransformState(contacts: many)
        #expect(state.contacts.map(\.id) == Array(0..<limit))
    }

    @Test("an inline list normalises as an array does, whether in order already or not")
    func inlineListsNormaliseAsArraysDo() {
        var random = LinearCongruential(seed: 15)
        var inOrder = 0
        for _ in 0..<2_000 {
            let count = Int(random.next() % UInt64(InlineList<Contact>.capacity + 1))
            var contacts: [Contact] = []
            var id = Int(random.next() % 4)
            for _ in 0..<count {
                // Mostly increasing ids (as a pad's slots give them), sometimes repeated or falling, sometimes NaN.
                switch random.next() % 10 {
                case 0: id -= Int(random.next() % 3)
                case 1: break
                default: id += 1 + Int(random.next() % 3)
                }
                let x = random.next() % 20 == 0 ? Double.nan : Double(random.next() % 1000) / 10
                contacts.append(Contact(id: id, position: Point(x: x, y: Double(random.next() % 500) / 10)))
            }
            var list = InlineList<Contact>()
            for contact in contacts { list.append(contact) }
            let expected = TransformState.normalized(contacts)
            #expect(TransformState.normalized(list) == expected, "\(contacts)")
            if TransformState.isNormalized(list) {
                inOrder += 1
                #expect(list == expected)
            }
        }
        #expect(inOrder > 100 && inOrder < 1_900, "both kinds of input were drawn: \(inOrder) in order")
    }
}

/// A tiny deterministic generator for tests (Knuth's MMIX constants).
struct LinearCongruential {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
