import ArgumentParser
import RoutemapDomain

/// The `routemap` executable: a point-of-sale backend that also drives its client's navigation.
@main
struct RoutemapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routemap",
        abstract: "A point-of-sale backend that tells its thin mobile client what to show and how.",
        version: RoutemapVersion.current,
        subcommands: [
            ServeCommand.self, MigrateCommand.self, RoutesCommand.self, HealthcheckCommand.self, SettingsCommand.self, BackupCommand.self,
            DevicesCommand.self, MenuCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    /// ArgumentParser's own entry, except for two errors any command may meet before it does
    /// its work, which get routemap's one `routemap: ` line and exit status (``refusal(_:exitStatus:)``)
    /// rather than `Error:` and 1: a setting that is not valid (64), and a database that cannot
    /// be reached now (75, try again later).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as SettingError {
            exit(withError: refusal(error, exitStatus: ExitCode.validationFailure.rawValue))
        } catch let error as StoreUnavailable {
            exit(withError: refusal(error, exitStatus: 75))  // EX_TEMPFAIL
        } catch {
            exit(withError: error)
        }
    }
}
