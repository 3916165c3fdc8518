import Foundation
import Testing

@testable import GestureRecognition

/// A displacement of `length` millimetres at `degrees` clockwise from the
/// positive x axis, in y-down coordinates.
private func displacement(degrees: Double, length: Double) -> (dx: Double, dy: Double) {
    let radians = degrees * Double.pi / 180
    return (cos(radians) * length, sin(radians) * length)
}

@Suite
struct SwipeDirectionTests {
    // MARK: The direction's own geometry

    @Test(arguments: SwipeDirection.allCases)
    func rawValueIsSnakeCaseAndRoundTripsThroughJSON(direction: SwipeDirection) throws {
        let expected = String(describing: direction).reduce(into: "") { name, character in
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
        #expect(direction.rawValue == expected)
        let data = try JSONEncoder().encode([direction])
        #expect(String(decoding: data, as: UTF8.self) == "[\"\(expected)\"]")
        #expect(try JSONDecoder().decode([SwipeDirection].self, from: data) == [direction])
    }

    @Test(arguments: SwipeDirection.allCases)
    func unitVectorHasLengthOneAndPointsAtTheAngle(direction: SwipeDirection) {
        let v = direction.unitVector
        #expect(abs(v.distance(to: .zero) - 1) < 1e-12)
        let angle = atan2(v.y, v.x) * 180 / Double.pi
        #expect(abs(angle - direction.angleDegrees) < 1e-9)
        #expect(direction.angleDegrees > -180 && direction.angleDegrees <= 180)
    }

    @Test(arguments: SwipeDirection.allCases)
    func upwardDirectionsHaveNegativeDy(direction: SwipeDirection) {
        let name = direction.rawValue
        let v = direction.unitVector
        #expect((v.y < 0) == name.hasPrefix("up"))
        #expect((v.y > 0) == name.hasPrefix("down"))
        #expect((v.x < 0) == name.hasSuffix("left"))
        #expect((v.x > 0) == name.hasSuffix("right"))
    }

    @Test(arguments: SwipeDirection.allCases)
    func oppositePointsBackAndIsAnInvolution(direction: SwipeDirection) {
        let opposite = direction.opposite
        #expect(opposite != direction)
        #expect(opposite.opposite == direction)
        let sum = direction.unitVector + opposite.unitVector
        #expect(abs(sum.x) < 1e-12 && abs(sum.y) < 1e-12)
    }

    @Test(arguments: SwipeDirection.allCases)
    func neighboursAreExactlyTheTwoDirections45DegreesAway(direction: SwipeDirection) {
        let neighbours = SwipeDirection.allCases.filter { direction.isNeighbour(of: $0) }
        #expect(neighbours.count == 2)
        #expect(!direction.isNeighbour(of: direction))
        for other in SwipeDirection.allCases {
            var difference = abs(other.angleDegrees - direction.angleDegrees)
            if difference > 180 { difference = 360 - difference }
            #expect(direction.isNeighbour(of: other) == (abs(difference - 45) < 1e-9))
            #expect(direction.isNeighbour(of: other) == other.isNeighbour(of: direction))
        }
    }

    @Test(arguments: SwipeDirection.allCases)
    func compassIndexRoundTripsAndDiagonalsAreOdd(direction: SwipeDirection) {
        #expect(SwipeDirection(compassIndex: direction.compassIndex) == direction)
        #expect(SwipeDirection(compassIndex: direction.compassIndex - 8) == direction)
        #expect(direction.isDiagonal == (direction.unitVector.x != 0 && direction.unitVector.y != 0))
    }

    // MARK: Classification

    @Test(arguments: SwipeDirection.allCases)
    func eightWayClassifiesEachDirectionAcrossItsSector(direction: SwipeDirection) {
        let classifier = SwipeDirection.Classifier(ways: .eight, minimumDistanceMillimeters: 10, deadZoneDegrees: 10)
        // The dead zone leaves 22.5 - 5 = 17.5 degrees either side of the centre.
        for offset in stride(from: -17.0, through: 17.0, by: 1.0) {
            let d = displacement(degrees: direction.angleDegrees + offset, length: 25)
            #expect(classifier.direction(dx: d.dx, dy: d.dy) == direction, "offset \(offset)")
        }
    }

    @Test(arguments: SwipeDirection.cardinal)
    func fourWayClassifiesEachAxisDirectionAcrossItsSector(direction: SwipeDirection) {
        let classifier = SwipeDirection.Classifier(ways: .four, minimumDistanceMillimeters: 10, deadZoneDegrees: 10)
        // The dead zone leaves 45 - 5 = 40 degrees either side of the centre.
        for offset in stride(from: -39.0, through: 39.0, by: 3.0) {
            let d = displacement(degrees: direction.angleDegrees + offset, length: 25)
            #expect(classifier.direction(dx: d.dx, dy: d.dy) == direction, "offset \(offset)")
        }
    }

    @Test(arguments: SwipeDirection.allCases.filter(\.isDiagonal))
    func diagonalInDeadZoneGivesNoDirectionInFourWayMode(direction: SwipeDirection) {
        let classifier = SwipeDirection.Classifier(ways: .four, minimumDistanceMillimeters: 10, deadZoneDegrees: 10)
        for offset in [-4.9, -2.0, 0.0, 2.0, 4.9] {
            let d = displacement(degrees: direction.angleDegrees + offset, length: 25)
            #expect(classifier.direction(dx: d.dx, dy: d.dy) == nil, "offset \(offset)")
        }
    }

    @Test(arguments: SwipeDirection.allCases.filter(\.isDiagonal))
    func diagonalGivesANeighbouringAxisInFourWayModeOutsideTheDeadZone(direction: SwipeDirection) {
        let classifier = SwipeDirection.Classifier(ways: .four, minimumDistanceMillimeters: 10, deadZoneDegrees: 10)
        let before = displacement(degrees: direction.angleDegrees - 6, length: 25)
        let after = displacement(degrees: direction.angleDegrees + 6, length: 25)
        let counterclockwise = classifier.direction(dx: before.dx, dy: before.dy)
        let clockwise = classifier.direction(dx: after.dx, dy: after.dy)
        #expect(counterclockwise == SwipeDirection(compassIndex: direction.compassIndex - 1))
        #expect(clockwise == SwipeDirection(compassIndex: direction.compassIndex + 1))
    }

    @Test(arguments: SwipeDirection.allCases)
    func boundaryBetweenEightWaySectorsIsADeadZone(direction: SwipeDirection) {
        let classifier = SwipeDirection.Classifier(ways: .eight, minimumDistanceMillimeters: 10, deadZoneDegrees: 10)
        let boundary = direction.angleDegrees + 22.5
        for offset in [-4.9, 0.0, 4.9] {
            let d = displacement(degrees: boundary + offset, length: 25)
            #expect(classifier.direction(dx: d.dx, dy: d.dy) == nil, "offset \(offset)")
        }
        let inside = displacement(degrees: boundary - 5.1, length: 25)
        let beyond = displacement(degrees: boundary + 5.1, length: 25)
        #expect(classifier.direction(dx: inside.dx, dy: inside.dy) == direction)
        #expect(classifier.direction(dx: beyond.dx, dy: beyond.dy) == SwipeDirection(compassIndex: direction.compassIndex + 1))
    }

    @Test(arguments: SwipeDirection.allCases)
    func withoutDeadZoneEveryAngleHasADirection(direction: SwipeDirection) {
        let classifier = SwipeDirection.Classifier(ways: .eight, minimumDistanceMillimeters: 0, deadZoneDegrees: 0)
        for offset in stride(from: -22.4, through: 22.4, by: 0.8) {
            let d = displacement(degrees: direction.angleDegrees + offset, length: 1)
            #expect(classifier.direction(dx: d.dx, dy: d.dy) == direction, "offset \(offset)")
        }
    }

    @Test(arguments: SwipeDirection.allCases)
    func swipeShorterThanTheMinimumDistanceGivesNoDirection(direction: SwipeDirection) {
        let classifier = SwipeDirection.Classifier(ways: .eight, minimumDistanceMillimeters: 12, deadZoneDegrees: 10)
        let short = direction.unitVector * 11.9
        let long = direction.unitVector * 12.1
        #expect(classifier.direction(dx: short.x, dy: short.y) == nil)
        #expect(classifier.direction(dx: long.x, dy: long.y) == direction)
        #expect(classifier.direction(from: Point(x: 50, y: 50), to: Point(x: 50, y: 50) + long) == direction)
    }

    @Test(arguments: SwipeDirection.Classifier.Ways.allCases)
    func degenerateDisplacementsGiveNoDirection(ways: SwipeDirection.Classifier.Ways) {
        let classifier = SwipeDirection.Classifier(ways: ways, minimumDistanceMillimeters: 0, deadZoneDegrees: 0)
        for (dx, dy) in [(0.0, 0.0), (.nan, 1), (1, .nan), (.infinity, 0), (0, -.infinity)] {
            #expect(classifier.direction(dx: dx, dy: dy) == nil, "(\(dx), \(dy))")
        }
        #expect(classifier.direction(dx: 1e308, dy: 1e308 * (ways == .eight ? 1 : 0.1)) != nil)
    }

    @Test func deadZoneWiderThanASectorGivesNoDirection() {
        let classifier = SwipeDirection.Classifier(ways: .eight, minimumDistanceMillimeters: 0, deadZoneDegrees: 46)
        for degrees in stride(from: -180.0, to: 180.0, by: 1.5) {
            let d = displacement(degrees: degrees, length: 10)
            #expect(classifier.direction(dx: d.dx, dy: d.dy) == nil, "\(degrees) degrees")
        }
    }

    @Test func negativeDyIsUpBecauseYGrowsDownwards() {
        #expect(SwipeDirection.classify(dx: 0, dy: -30) == .up)
        #expect(SwipeDirection.classify(dx: 0, dy: 30) == .down)
        #expect(SwipeDirection.classify(dx: -30, dy: -30) == .upLeft)
        #expect(SwipeDirection.classify(dx: 30, dy: 30) == .downRight)
    }
}
