import ArgumentParser

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
}
