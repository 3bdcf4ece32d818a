extension RouteRegistry {
    /// Everything wrong with the registry, in a stable order; empty when the navigator can use
    /// it. The server refuses to start on a registry with problems; `routemap routes check`
    /// prints them.
    public func problems() -> [RegistryProblem] {
        var problems: [RegistryProblem] = []
        for id in duplicateIDs { problems.append(.init(.duplicateID, route: id, "is registered more than once")) }
        for route in routes where !route.id.isWellFormed {
            problems.append(.init(.invalidID, route: route.id, "is not a valid route id (a letter, then letters, digits, _ - or .)"))
        }
        problems += rootProblems()
        problems += structureProblems()
        problems += inputProblems()
        problems += deepLinkProblems()
        problems += fallbackProblems()
        problems += guardProblems()
        return problems
    }

    private func guardProblems() -> [RegistryProblem] {
        var problems: [RegistryProblem] = []
        for route in routes {
            guard let routeGuard = route.routeGuard else { continue }
            if guardPredicate(for: route.id) == nil {
                problems.append(.init(.invalidGuard, route: route.id, "has guard \(routeGuard.name) but no predicate for it"))
            }
            if routeGuard.code.isEmpty || !routeGuard.code.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) {
                problems.append(.init(.invalidGuard, route: route.id, "guard \(routeGuard.name) has code '\(routeGuard.code)', not lowercase letters, digits and _"))
            }
            guard let parent = route.parent else { continue }
            let firstTab = children(of: parent).first { $0.presentation == .tab }?.id
            let firstInSlot: RouteID? = if case .embed(let slot) = route.presentation { routes(inSlot: slot, of: parent).first?.id } else { nil }
            if route.id == firstTab || route.id == firstInSlot {
                problems.append(.init(.guardedInitialContent, route: route.id, "has guard \(routeGuard.name) but is shown with \(parent) as its initial contents"))
            }
        }
        return problems
    }

    private func rootProblems() -> [RegistryProblem] {
        let roots = routes.filter { $0.presentation == .root }
        var problems: [RegistryProblem] = []
        if roots.isEmpty { problems.append(.init(.noRoot, route: nil, "no route is shown as root")) }
        if roots.count > 1 {
            for root in roots { problems.append(.init(.multipleRoots, route: root.id, "is one of \(roots.count) roots")) }
        }
        for route in routes {
            if route.presentation == .root, let parent = route.parent {
                problems.append(.init(.misplacedRoot, route: route.id, "is the root but has parent \(parent)"))
            } else if route.presentation != .root, route.parent == nil {
                problems.append(.init(.misplacedRoot, route: route.id, "has no parent but is not the root"))
            }
        }
        return problems
    }

    private func structureProblems() -> [RegistryProblem] {
        var problems: [RegistryProblem] = []
        for route in routes {
            if let parentID = route.parent, self[parentID] == nil {
                problems.append(.init(.missingParent, route: route.id, "has parent \(parentID), which is not registered"))
            }
            if case .embed(let slot) = route.presentation, let parentID = route.parent, let parent = self[parentID],
                !parent.slots.contains(slot)
            {
                problems.append(.init(.unknownSlot, route: route.id, "is embedded in slot \(slot), which \(parentID) does not offer"))
            }
            switch ancestry(of: route.id) {
            case .cycle:
                problems.append(.init(.cycle, route: route.id, "is its own ancestor"))
            case .reachesRoot:
                break
            case .brokenChain:
                if route.parent != nil, self[route.parent!] != nil {
                    problems.append(.init(.unreachable, route: route.id, "cannot be reached from the root"))
                }
            }
        }
        return problems
    }

    private func inputProblems() -> [RegistryProblem] {
        var problems: [RegistryProblem] = []
        for route in routes {
            guard let path = path(to: route.id) else { continue }
            let provided = Set(path.dropLast().flatMap(\.provides))
            for input in route.requires where !provided.contains(input) && !route.callerSupplied.contains(input) {
                problems.append(
                    .init(.unprovidedInput, route: route.id, "requires \(input), which no ancestor provides and is not caller-supplied"))
            }
        }
        return problems
    }

    private func deepLinkProblems() -> [RegistryProblem] {
        var problems: [RegistryProblem] = []
        let patterns = routes.flatMap { route in route.deepLinks.map { (route: route, pattern: $0) } }
        for (index, entry) in patterns.enumerated() {
            if let defect = entry.pattern.defect {
                problems.append(.init(.invalidDeepLink, route: entry.route.id, "deep link \(entry.pattern) \(defect)"))
                continue
            }
            for other in patterns[(index + 1)...] where entry.pattern.overlaps(other.pattern) {
                problems.append(
                    .init(
                        .ambiguousDeepLink, route: entry.route.id,
                        "deep link \(entry.pattern) can match the same URL as \(other.pattern) of \(other.route.id)"))
            }
        }
        return problems
    }

    private func fallbackProblems() -> [RegistryProblem] {
        var problems: [RegistryProblem] = []
        for route in routes {
            guard let fallback = route.fallback else { continue }
            guard self[fallback] != nil else {
                problems.append(.init(.missingFallback, route: route.id, "falls back to \(fallback), which is not registered"))
                continue
            }
            var seen: Set<RouteID> = [route.id]
            var next: RouteID? = fallback
            while let current = next, let target = self[current] {
                if !seen.insert(current).inserted {
                    problems.append(.init(.missingFallback, route: route.id, "has fallbacks that lead back to \(current)"))
                    break
                }
                next = target.fallback
            }
        }
        return problems
    }

    private enum Ancestry { case reachesRoot, brokenChain, cycle }

    /// Follows parents from `id`: to the root, to a dead end (or into a cycle elsewhere), or
    /// around a cycle through `id` itself.
    private func ancestry(of id: RouteID) -> Ancestry {
        if isOnCycle(id) { return .cycle }
        var current = self[id]
        var steps = 0
        while let route = current, steps <= order.count {
            if route.presentation == .root && route.parent == nil { return .reachesRoot }
            current = route.parent.flatMap { self[$0] }
            steps += 1
        }
        return .brokenChain
    }

    private func isOnCycle(_ id: RouteID) -> Bool {
        var current = self[id]?.parent
        var steps = 0
        while let next = current, steps <= order.count {
            if next == id { return true }
            current = self[next]?.parent
            steps += 1
        }
        return false
    }
}

extension RouteID {
    /// A letter, then letters, digits, `_`, `-` or `.`: safe in stacks, URLs and the `sub:` marker.
    var isWellFormed: Bool {
        guard let first = rawValue.unicodeScalars.first, first.isASCIILetter else { return false }
        return rawValue.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
