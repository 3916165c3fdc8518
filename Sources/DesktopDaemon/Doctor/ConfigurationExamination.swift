import Foundation
import InputChecks

/// The configuration: where, valid, its errors or its warnings
/// (``DaemonConfiguration/warnings()``, and the device filters that match
/// none of the devices when some could be read). Leaves the configuration
/// in the context when it is valid.
struct ConfigurationExamination: DoctorExamination {
    var area: DoctorCheck.Area { .configuration }

    func examine(_ context: inout DoctorContext) -> DoctorCheck {
        let (check, loaded) = examine(context.system, devices: context.readableDevices)
        context.configuration = loaded
        return check
    }

    private func examine(_ system: any DoctorSystem, devices: [InputDevice]?) -> (check: DoctorCheck, loaded: DaemonConfiguration?) {
        let location = ConfigurationLocation(environment: system.environment)
        let present = location.candidates.filter { system.status(of: $0) != nil }
        guard let path = present.first else {
            let check = DoctorCheck(
                area: .configuration, status: .problem,
                summary: "There is no configuration in \(location.directory), so gestures run has nothing to do.",
                fix: "Write \(location.directory)/config.yaml (the README's \"A first configuration\" works as pasted).")
            return (check, nil)
        }
        guard let text = system.text(of: path) else {
            let check: DoctorCheck
            if let problem = system.problem(reading: path), problem.contains("not a regular file") {
                check = DoctorCheck(
                    area: .configuration, status: .problem, summary: "\(path) \(problem), so it is not read.",
                    fix: "Put the configuration in a regular file at \(path) (remove what is there first).")
            } else {
                check = DoctorCheck(
                    area: .configuration, status: .problem, summary: "\(path) cannot be read.",
                    fix: "Make it readable by you: 'chmod u+r \(path)'.")
            }
            return (check, nil)
        }
        let data = Data(text.utf8)
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.decode(
                data, format: .detect(path: path, data: data),
                baseDirectory: PathName.folder(of: path))
        } catch {
            let errors = ConfigurationErrors(file: path, error.errors)
            let check = DoctorCheck(
                area: .configuration, status: .problem, summary: "\(errors.description).",
                fix: "Run 'gestures check-config \(path)' for every error with its key, and correct them.",
                details: errors.lines)
            return (check, nil)
        }
        var check = DoctorCheck(
            area: .configuration, status: .ok,
            summary: "\(path) is valid: \(DoctorWords.counted(configuration.bindings.count, "binding")).")
        let warnings = configuration.warnings() + (devices.map { configuration.warnings(devices: $0) } ?? [])
        if !warnings.isEmpty {
            // A binding that never fires, or fires with another, is why a gesture seems to do nothing.
            check.status = .problem
            check.summary =
                "\(path) is valid (\(DoctorWords.counted(configuration.bindings.count, "binding"))), "
                + "but \(warnings.count == 1 ? "a warning says" : "\(warnings.count) warnings say") what will not work as written."
            check.fix = "Correct the bindings the warnings name ('gestures check-config \(path)' lists each with its key)."
            check.details = warnings.map(\.description)
        }
        if present.count > 1 {
            check.status = .problem
            check.summary +=
                " \(DoctorWords.list(present.dropFirst().map { $0 })) \(present.count > 2 ? "are" : "is") there too and ignored."
            check.fix = "Keep one file: remove or rename \(DoctorWords.list(present.dropFirst().map { $0 }))."
        }
        return (check, configuration)
    }
}
