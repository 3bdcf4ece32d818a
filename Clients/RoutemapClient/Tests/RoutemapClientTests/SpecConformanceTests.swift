import Foundation
import Testing

@testable import RoutemapClient

/// The Swift types against openapi.yaml, so the two cannot drift: every object schema's members
/// are the type's coding keys, its required members are the ones the type cannot do without,
/// an instance with every member survives decoding and encoding unchanged, and every enum of
/// the spec is a Swift enumeration with the same known values. A schema the spec adds fails the
/// test until it is mapped here.
@Suite("Wire types match openapi.yaml")
struct SpecConformanceTests {
    /// Object schemas of `components/schemas` and the Swift type mirroring each.
    static let objectTypes: [String: any WireObject.Type] = [
        "Problem": Problem.self,
        "EnrollRequest": EnrollRequest.self,
        "EnrolledDevice": EnrolledDevice.self,
        "NavigationAnswer": NavigationAnswer.self,
        "NavigateRequest": NavigateRequest.self,
        "MenuItem": MenuItem.self,
        "MenuScreenItem": MenuScreenItem.self,
        "ModifierGroup": ModifierGroup.self,
        "ModifierOption": ModifierOption.self,
        "LineModifier": LineModifier.self,
        "ModifierSheetPayload": ModifierSheetPayload.self,
        "BillLine": BillLine.self,
        "Bill": Bill.self,
        "Payment": Payment.self,
        "AddItemRequest": AddItemRequest.self,
        "UpdateItemRequest": UpdateItemRequest.self,
        "PayRequest": PayRequest.self,
        "BillAndNavigation": BillAndNavigation.self,
        "Step": Step.self,
        "PresentationOptions": PresentationOptions.self,
        "Screen": Screen.self,
        "MenuPayload": MenuPayload.self,
        "DeclarativeBillPayload": DeclarativeBillPayload.self,
        "OrderSummaryPayload": OrderSummaryPayload.self,
        "SuggestedTip": SuggestedTip.self,
        "ScreenAction": ScreenAction.self,
        "Route": Route.self,
        "StackEntry": StackEntry.self,
        "ListedDevice": ListedDevice.self,
        "DeviceList": DeviceList.self,
        "CreateMenuItemRequest": CreateMenuItemRequest.self,
        "ChangeMenuItemRequest": ChangeMenuItemRequest.self,
        "MenuItemAnswer": MenuItemAnswer.self,
        "MenuCategory": MenuCategory.self,
        "RenameMenuCategoryRequest": RenameMenuCategoryRequest.self,
        "MenuCategoryAnswer": MenuCategoryAnswer.self,
        "BillVoid": BillVoid.self,
        "VoidRequest": VoidRequest.self,
        "CreateBillRequest": CreateBillRequest.self,
        "SetLabelRequest": SetLabelRequest.self,
        "Discount": Discount.self,
        "DiscountRequest": DiscountRequest.self,
        "TransferRequest": TransferRequest.self,
        "RefundRequest": RefundRequest.self,
        "Refund": Refund.self,
        "RefundList": RefundList.self,
        "ShiftMembers": Shift.self,
        "DrawerPayload": DrawerPayload.self,
        "DrawerMovement": DrawerMovement.self,
        "OpenShiftRequest": OpenShiftRequest.self,
        "DrawerMovementRequest": DrawerMovementRequest.self,
        "CloseShiftRequest": CloseShiftRequest.self,
        "ShiftList": ShiftList.self,
        "ShiftListEntry": ShiftListEntry.self,
        "MethodTotals": MethodTotals.self,
        "Receipt": Receipt.self,
        "Shop": Shop.self,
        "BillList": BillList.self,
        "BillListEntry": BillListEntry.self,
        "SalesReport": SalesReport.self,
        "SalesItem": SalesItem.self,
        "StartTriviaGameRequest": StartTriviaGameRequest.self,
        "TriviaAnswerRequest": TriviaAnswerRequest.self,
        "TriviaQuestion": TriviaQuestion.self,
        "TriviaGame": TriviaGame.self,
        "TriviaAnswered": TriviaAnswered.self,
        "TriviaGameStarted": TriviaGameStarted.self,
        "TriviaNoData": TriviaNoData.self,
        "TriviaNoDataReason": TriviaNoDataReason.self,
        "TriviaAnswerResult": TriviaAnswerResult.self,
    ]

    /// Required members a type reads leniently, and why.
    static let lenientRequired: [String: String] = [
        "StackEntry.inputs": "a request entry may leave it out (RequestStackEntry): no inputs known, as {} says for a route that requires some",
        "Payment.tipMinor": "a node from before tips (during a rollout) sends none: no tip, charged the amount",
        "Payment.chargedMinor": "a node from before tips (during a rollout) sends none: no tip, charged the amount",
        "Bill.paidMinor": "a node from before split tender (during a rollout) sends none: read from the status and total",
        "Bill.dueMinor": "a node from before split tender (during a rollout) sends none: read from the status and total",
        "Bill.payments": "a node from before split tender (during a rollout) sends none: read from the status and total",
        "DeclarativeBillPayload.paidMinor": "a node from before split tender (during a rollout) sends none: read from the status and total",
        "DeclarativeBillPayload.dueMinor": "a node from before split tender (during a rollout) sends none: read from the status and total",
        "DeclarativeBillPayload.payments": "a node from before split tender (during a rollout) sends none: read from the status and total",
        "OrderSummaryPayload.paidMinor": "a node from before split tender (during a rollout) sends none: read from the status and total",
        "OrderSummaryPayload.dueMinor": "a node from before split tender (during a rollout) sends none: read from the status and total",
        "OrderSummaryPayload.payments": "a node from before split tender (during a rollout) sends none: read from the status and total",
        "Receipt.payments": "a node from before split tender (during a rollout) sends none: read from the status and total: its one payment",
        "BillListEntry.discountMinor": "a node from before the list showed it (during a rollout) sends none: read from the other totals",
    ]

    /// Schemas mirrored otherwise, and why.
    static let otherSchemas: [String: String] = [
        "Stack": "an array of StackEntry",
        "RequestStack": "an array of StackEntry (checked in stackEntries)",
        "RequestStackEntry": "StackEntry, which reads both forms (checked in stackEntries)",
        "Inputs": "a string map",
        "InputName": "a String",
        "BillId": "a String",
        "LineId": "a String",
        "LineNoteText": "a String? (AddItemRequest.note, UpdateItemRequest.note)",
        "BillLabelText": "a String? (CreateBillRequest.label, SetLabelRequest.label)",
        "BillLabel": "a String? (Bill.label, BillListEntry.label, OrderSummaryPayload.label)",
        "Navigation": "an array of Step",
        "RouteId": "a String (RouteID)",
        "Currency": "a String",
        "DiscountMinor": "an Int64",
        "ShopDetail": "a String (Shop's members)",
        "EmptyObject": "no members: the bodies that take it are sent empty",
        "BillInputs": "Screen.inputs, a string map",
        "ModifierSheetInputs": "Screen.inputs, a string map",
        "Component": "the Component enumeration (checked per alternative)",
        "RoutePresentation": "the RoutePresentation enumeration (checked per alternative)",
        "RouteTree": "RouteTree (checked in routeTree)",
        "RouteDetail": "RouteDetail (checked in routeTree)",
        "GameId": "a String",
        "Shift": "ShiftMembers and no other member: Shift",
        "ShiftAnswer": "ShiftAnswer: ShiftMembers and navigation (checked in shiftAnswer)",
        "TriviaDifficulty": "the TriviaDifficulty enumeration",
        "TriviaFilterInputs": "Screen.inputs, a string map",
        "GameInputs": "Screen.inputs, a string map",
        "LandingPayload": "Screen.payload, read by the app's own trivia screens",
        "TriviaOptionsPayload": "Screen.payload, read by the app's own trivia screens",
        "TriviaChoicesPayload": "Screen.payload, read by the app's own trivia screens",
        "TriviaGamePayload": "Screen.payload, read by the app's own trivia screens",
        "TriviaResultsPayload": "Screen.payload, read by the app's own trivia screens",
        "NoDataPayload": "Screen.payload, read by the app's own trivia screens",
    ]

    /// Inline answer schemas, by operation id.
    static let inlineAnswers: [String: any WireObject.Type] = [
        "listMenuItems": MenuListing.self,
        "payBill": PaymentAnswer.self,
        "listRoutes": RouteTreeAnswer.self,
        "appListRoutes": RouteTreeAnswer.self,
        "health": HealthStatus.self,
        "revokeDevice": RevokedDeviceAnswer.self,
        "retireMenuItem": RetiredMenuItemAnswer.self,
        "listMenuCategories": MenuCategoryListing.self,
        "retireMenuCategory": RetiredMenuCategoryAnswer.self,
        "voidBill": VoidAnswer.self,
        "refundBill": RefundAnswer.self,
        "recordDrawerMovement": DrawerMovementAnswer.self,
    ]

    /// Every `enum` of the spec's schemas and the known values of its Swift enumeration.
    static let enumerations: [String: [String]] = [
        "Problem.code": ProblemCode.knownCases.map(\.rawValue),
        "Bill.status": BillStatus.knownCases.map(\.rawValue),
        "BillListEntry.status": [BillStatus.open, .checkedOut].map(\.rawValue),
        "Payment.method": PaymentMethod.knownCases.map(\.rawValue),
        "PayRequest.method": PaymentMethod.knownCases.map(\.rawValue),
        "NavigateRequest.mode": NavigationMode.knownCases.map(\.rawValue),
        "Step.op": StepOperation.knownCases.map(\.rawValue),
        "PresentationOptions.style": PresentationStyle.knownCases.map(\.rawValue),
        "Screen.type": ScreenType.knownCases.map(\.rawValue),
        "Screen.renderer": Renderer.knownCases.map(\.rawValue),
        "ScreenAction.method": HTTPMethod.knownCases.map(\.rawValue),
        "Route.renderer": Renderer.knownCases.map(\.rawValue),
        "Component/text.style": Component.TextStyle.knownCases.map(\.rawValue),
        "Component/button.style": Component.ButtonStyle.knownCases.map(\.rawValue),
        "RoutePresentation/present.style": PresentationStyle.knownCases.map(\.rawValue),
        "EnrollRequest.role": DeviceRole.knownCases.map(\.rawValue),
        "EnrolledDevice.role": DeviceRole.knownCases.map(\.rawValue),
        "ListedDevice.role": DeviceRole.knownCases.map(\.rawValue),
        "TriviaDifficulty": TriviaDifficulty.knownCases.map(\.rawValue),
        "ShiftMembers.status": ShiftStatus.knownCases.map(\.rawValue),
        "DrawerMovement.kind": DrawerMovementKind.knownCases.map(\.rawValue),
    ]

    /// The struct behind each component alternative (by its title, which is its `type`).
    static let componentTypes: [String: (any WireObject.Type)?] = [
        "section": Component.Section.self, "row": Component.Row.self, "text": Component.Text.self,
        "image": Component.Image.self, "button": Component.Button.self, "divider": nil,
    ]

    let spec: OpenAPISpec

    init() throws { spec = try OpenAPISpec.load() }

    @Test("Every schema of the spec is mirrored by a Swift type, and every inline answer too")
    func everySchemaMapped() throws {
        let mapped = Set(Self.objectTypes.keys).union(Self.otherSchemas.keys)
        #expect(Set(spec.schemas.keys).subtracting(mapped).isEmpty, "schemas with no Swift type")
        #expect(mapped.subtracting(spec.schemas.keys).isEmpty, "Swift types for schemas the spec no longer has")
        for (id, bodies) in spec.operations {
            for body in bodies where body["$ref"] == nil && OpenAPISpec.type(of: body) == "object" {
                #expect(Self.inlineAnswers[id] != nil, "the inline answer of \(id) has no Swift type")
            }
        }
    }

    @Test("Object schemas: members, required members, and a full instance round-trips")
    func objectSchemas() throws {
        for (name, type) in Self.objectTypes {
            try check(type, against: try spec.schema(name), name: name)
        }
        for (operation, type) in Self.inlineAnswers {
            try check(type, against: try spec.successSchema(of: operation), name: operation)
        }
        let tabs = try #require(try spec.schema("Step")["properties"]?["tabs"]?["items"])
        try check(Tab.self, against: tabs, name: "Step.tabs[]")
        let tax = try #require(try spec.schema("Receipt")["properties"]?["tax"])
        try check(ReceiptTax.self, against: tax, name: "Receipt.tax")
    }

    @Test("Stack entries: a request entry's object and string forms decode, the object form round-trips")
    func stackEntries() throws {
        let alternatives = try #require(try spec.schema("RequestStackEntry")["oneOf"]?.arrayValue)
        let object = try #require(alternatives.first { OpenAPISpec.type(of: $0) == "object" })
        try check(StackEntry.self, against: object, name: "RequestStackEntry/object")
        let minimal = try spec.sample(object, full: false)
        #expect(try minimal.decode(StackEntry.self) == StackEntry(route: "text"), "no inputs: none known")
        let legacy = try JSONDecoder().decode([StackEntry].self, from: Data(#"["tabBar","sub:bill"]"#.utf8))
        #expect(legacy == [StackEntry(route: "tabBar"), StackEntry(route: "bill", sub: true)])
        // A walk from a stack: `from` as the spec's RequestStack.
        let request = NavigateRequest(from: .stack([StackEntry(route: "tabBar"), StackEntry(route: "bill", inputs: ["billId": "bill_1"], sub: true)]), to: "menu")
        let json = try JSONValue(encoding: request)
        #expect(json["from"] == [["route": "tabBar", "inputs": [:]], ["route": "bill", "inputs": ["billId": "bill_1"], "sub": true]])
        #expect(try json.decode(NavigateRequest.self) == request)
    }

    @Test("Every enum of the spec is a Swift enumeration with the same known values")
    func enums() throws {
        var found: [String: Set<String>] = [:]
        for name in spec.schemas.keys {
            found.merge(OpenAPISpec.enumerations(in: try spec.schema(name), path: name)) { a, _ in a }
        }
        #expect(Set(found.keys) == Set(Self.enumerations.keys), "enums of the spec vs the Swift table")
        for (path, values) in found {
            #expect(values == Set(Self.enumerations[path] ?? []), "\(path)")
        }
    }

    @Test("Component: each alternative's members are its struct's, it decodes to a known case and round-trips; an unknown type is unknown")
    func components() throws {
        let alternatives = try #require(try spec.schema("Component")["oneOf"]?.arrayValue)
        var types: [String] = []
        for alternative in alternatives {
            let type = try #require(alternative["properties"]?["type"]?["const"]?.stringValue)
            types.append(type)
            let members = Set(alternative["properties"]?.objectValue?.keys.map { $0 } ?? []).subtracting(["type"])
            let swiftType = try #require(Self.componentTypes[type], "no Swift type for component \(type)")
            #expect(members == Set(swiftType?.memberNames ?? []), "component \(type)")
            let sample = try spec.sample(alternative, full: true)
            let component = try sample.decode(Component.self)
            #expect(component.type == type)
            if case .unknown = component { Issue.record("component \(type) decodes as unknown") }
            #expect(try JSONValue(encoding: component) == sample, "component \(type) round trip")
        }
        #expect(Set(types) == Set(Component.knownTypes))
        #expect(try JSONValue.object(["type": "chart", "points": [1, 2]]).decode(Component.self) == .unknown(type: "chart"))
    }

    @Test("RoutePresentation: each alternative decodes to a known case and round-trips")
    func routePresentations() throws {
        let alternatives = try #require(try spec.schema("RoutePresentation")["oneOf"]?.arrayValue)
        var kinds: [String] = []
        for alternative in alternatives {
            kinds.append(try #require(alternative["properties"]?["kind"]?["const"]?.stringValue))
            for full in [true, false] {
                let sample = try spec.sample(alternative, full: full)
                let presentation = try sample.decode(RoutePresentation.self)
                if case .unknown = presentation { Issue.record("\(sample) decodes as unknown") }
                #expect(try JSONValue(encoding: presentation) == sample)
            }
        }
        #expect(Set(kinds) == Set(RoutePresentation.knownKinds))
    }

    @Test("ShiftAnswer: the shift's members and navigation; a full instance round-trips, navigation is required")
    func shiftAnswer() throws {
        let schema = try spec.schema("ShiftAnswer")
        #expect(Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? []) == ["navigation"])
        let full = try spec.sample(schema, full: true)
        let answer = try full.decode(ShiftAnswer.self)
        #expect(try JSONValue(encoding: answer) == full)
        #expect(answer.shiftId == answer.shift.shiftId)
        guard case .object(var object) = full else { throw TestSetupError("ShiftAnswer's sample is not an object") }
        object["navigation"] = nil
        #expect(throws: (any Error).self) { try JSONValue.object(object).decode(ShiftAnswer.self) }
        #expect(try JSONValue.object(object).decode(Shift.self) == answer.shift)
    }

    @Test("RouteTree and RouteDetail round-trip")
    func routeTree() throws {
        let tree = try spec.sample(try spec.schema("RouteTree"), full: true)
        #expect(try JSONValue(encoding: try tree.decode(RouteTree.self)) == tree)
        let detail = try spec.sample(try spec.schema("RouteDetail"), full: true)
        #expect(try JSONValue(encoding: try detail.decode(RouteDetail.self)) == detail)
        #expect(try detail.decode(RouteDetail.self).children == ["text"])
    }

    // MARK: Checking one type

    private func check(_ type: any WireObject.Type, against schema: JSONValue, name: String) throws {
        let schema = try spec.resolve(schema)
        let members = Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? [])
        #expect(members == Set(type.memberNames), "\(name): the spec's members vs \(type)'s coding keys")

        let minimal = try spec.sample(schema, full: false)
        #expect(throws: Never.self, "\(name): an instance with only the required members decodes") { try decode(type, minimal) }
        for member in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where Self.lenientRequired["\(name).\(member)"] == nil {
            guard case .object(var object) = minimal else { continue }
            object[member] = nil
            #expect(throws: (any Error).self, "\(name): \(member) is required") { try decode(type, .object(object)) }
        }

        let full = try spec.sample(schema, full: true)
        let decoded = try decode(type, full)
        #expect(try JSONValue(encoding: decoded) == full, "\(name): a full instance round-trips")

        guard case .object(var withExtra) = full else { return }
        withExtra["memberFromANewerServer"] = ["nested": [1, 2]]
        #expect(throws: Never.self, "\(name): an unknown member is ignored") { try decode(type, .object(withExtra)) }
    }

    private func decode(_ type: any WireObject.Type, _ value: JSONValue) throws -> any WireObject {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(value))
    }
}
