// The string enumerations of openapi.yaml, each open to values a newer server adds.

/// What a navigation step does (docs/navigation.md, "Steps").
public enum StepOperation: OpenEnumeration {
    case setRoot, selectTab, embed, present, dismiss, push, pop, popTo, replace, refresh
    case unknown(String)

    public static let knownCases: [StepOperation] = [.setRoot, .selectTab, .embed, .present, .dismiss, .push, .pop, .popTo, .replace, .refresh]

    public var rawValue: String {
        switch self {
        case .setRoot: "setRoot"
        case .selectTab: "selectTab"
        case .embed: "embed"
        case .present: "present"
        case .dismiss: "dismiss"
        case .push: "push"
        case .pop: "pop"
        case .popTo: "popTo"
        case .replace: "replace"
        case .refresh: "refresh"
        case .unknown(let value): value
        }
    }
}

/// How a presented route is shown.
public enum PresentationStyle: OpenEnumeration {
    case modal, sheet, fullScreen, popover
    case unknown(String)

    public static let knownCases: [PresentationStyle] = [.modal, .sheet, .fullScreen, .popover]

    public var rawValue: String {
        switch self {
        case .modal: "modal"
        case .sheet: "sheet"
        case .fullScreen: "fullScreen"
        case .popover: "popover"
        case .unknown(let value): value
        }
    }
}

/// Who draws a screen: the app's own screen for its type, or the generic renderer over
/// `payload.components`.
public enum Renderer: OpenEnumeration {
    case native, declarative
    case unknown(String)

    public static let knownCases: [Renderer] = [.native, .declarative]

    public var rawValue: String {
        switch self {
        case .native: "native"
        case .declarative: "declarative"
        case .unknown(let value): value
        }
    }
}

/// The screen types the server sends: the point of sale's, then the trivia app's. The app names
/// the native ones it implements in `Navigation-Screens`; others arrive as declarative screens.
public enum ScreenType: OpenEnumeration {
    case tabBar, splitView, menu, bill, orderSummary, billList, modifierSheet, drawer
    case navigationStack, landing, triviaOptions, difficultyMenu, categoryPicker, triviaGame, triviaResults, noData
    case unknown(String)

    public static let knownCases: [ScreenType] = [
        .tabBar, .splitView, .menu, .bill, .orderSummary, .billList, .modifierSheet, .drawer,
        .navigationStack, .landing, .triviaOptions, .difficultyMenu, .categoryPicker, .triviaGame, .triviaResults, .noData,
    ]

    public var rawValue: String {
        switch self {
        case .tabBar: "tabBar"
        case .splitView: "splitView"
        case .menu: "menu"
        case .bill: "bill"
        case .orderSummary: "orderSummary"
        case .billList: "billList"
        case .modifierSheet: "modifierSheet"
        case .drawer: "drawer"
        case .navigationStack: "navigationStack"
        case .landing: "landing"
        case .triviaOptions: "triviaOptions"
        case .difficultyMenu: "difficultyMenu"
        case .categoryPicker: "categoryPicker"
        case .triviaGame: "triviaGame"
        case .triviaResults: "triviaResults"
        case .noData: "noData"
        case .unknown(let value): value
        }
    }
}

/// The HTTP method of a screen action.
public enum HTTPMethod: OpenEnumeration {
    case get, post, put, patch, delete
    case unknown(String)

    public static let knownCases: [HTTPMethod] = [.get, .post, .put, .patch, .delete]

    public var rawValue: String {
        switch self {
        case .get: "GET"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .unknown(let value): value
        }
    }
}

/// Where a bill is in its life.
public enum BillStatus: OpenEnumeration {
    case open, checkedOut, paid, voided
    case unknown(String)

    public static let knownCases: [BillStatus] = [.open, .checkedOut, .paid, .voided]

    public var rawValue: String {
        switch self {
        case .open: "open"
        case .checkedOut: "checked_out"
        case .paid: "paid"
        case .voided: "voided"
        case .unknown(let value): value
        }
    }
}

/// How a bill is paid.
public enum PaymentMethod: OpenEnumeration {
    case card, cash
    case unknown(String)

    public static let knownCases: [PaymentMethod] = [.card, .cash]

    public var rawValue: String {
        switch self {
        case .card: "card"
        case .cash: "cash"
        case .unknown(let value): value
        }
    }
}

/// The kind of walk `POST /v1/navigate` makes.
public enum NavigationMode: OpenEnumeration {
    /// To a route, keeping the longest common prefix of the two stacks.
    case to
    /// One hop up.
    case parent
    /// The route shown over the top of the stack, as a subroutine (docs/navigation.md, "Walks").
    case sub
    case unknown(String)

    public static let knownCases: [NavigationMode] = [.to, .parent, .sub]

    public var rawValue: String {
        switch self {
        case .to: "to"
        case .parent: "parent"
        case .sub: "sub"
        case .unknown(let value): value
        }
    }
}

/// The stable `code` of a problem+json answer (README, "Errors").
public enum ProblemCode: OpenEnumeration {
    case malformedJSON, invalidField, notFound, methodNotAllowed, payloadTooLarge, unsupportedMediaType
    case billNotOpen, billEmpty, billNotCheckedOut, unknownMenuItem, menuItemUnavailable, amountMismatch
    case insufficientTender, internalError, unavailable, badRequest, unauthorized, tooManyRequests
    case idempotencyKeyRequired, idempotencyKeyReused, idempotencyKeyInFlight, unsupportedClient
    case invalidStack, noParent, missingInput, uriTooLong
    case managerOnly, deviceRevoked, menuItemExists, unknownCategory, menuCategoryExists, categoryNotEmpty
    case billSettled, lineQuantityLimit, tooManyLines
    case questionAlreadyAnswered, questionNotCurrent, questionNotInGame, answerNotAChoice, gameNotFinished, questionsAvailable
    /// 503s (`Retry-After` says when to try again): too many requests waiting, an answer that
    /// took too long (the change may still complete), the server stopping, the database not answering.
    case overloaded, timedOut, shuttingDown, databaseUnavailable
    /// A bill given to a device that is unknown or revoked.
    case deviceNotActive
    /// A refund or receipt of a bill that is not paid; a refund over what is left of its payment.
    case billNotPaid, refundExceedsPayment
    /// A discount larger than a till may give (``Problem/limitBps``, ``Problem/shareBps``): a manager gives it.
    case discountNeedsManager
    /// Split tender: a partial payment of more than is due (``Problem/dueMinor``); cancelling or
    /// voiding a partly paid bill (``Problem/paidMinor``); a refund of a split bill without
    /// `paymentId` (``Problem/paymentIds``), or naming a payment not the bill's.
    case amountExceedsDue, billPartlyPaid, paymentIdRequired, unknownPayment
    /// An add named an option that is not the item's (``Problem/optionId``).
    case unknownModifier
    /// An add chose a modifier group too few or too many times (``Problem/groupId``).
    case modifierChoiceInvalid
    /// Cash drawer shifts: opening a second (``Problem/shiftId``, the open one); cash moved or a
    /// close without an open shift; a pay-out beyond the cash the drawer should hold
    /// (``Problem/expectedCashMinor``).
    case shiftAlreadyOpen, noOpenShift, insufficientCash
    case unknown(String)

    public static let knownCases: [ProblemCode] = [
        .malformedJSON, .invalidField, .notFound, .methodNotAllowed, .payloadTooLarge, .unsupportedMediaType,
        .billNotOpen, .billEmpty, .billNotCheckedOut, .unknownMenuItem, .menuItemUnavailable, .amountMismatch,
        .insufficientTender, .internalError, .unavailable, .badRequest, .unauthorized, .tooManyRequests,
        .idempotencyKeyRequired, .idempotencyKeyReused, .idempotencyKeyInFlight, .unsupportedClient,
        .invalidStack, .noParent, .missingInput, .uriTooLong,
        .managerOnly, .deviceRevoked, .menuItemExists, .unknownCategory, .menuCategoryExists, .categoryNotEmpty,
        .billSettled, .lineQuantityLimit, .tooManyLines,
        .questionAlreadyAnswered, .questionNotCurrent, .questionNotInGame, .answerNotAChoice, .gameNotFinished, .questionsAvailable,
        .overloaded, .timedOut, .shuttingDown, .databaseUnavailable, .deviceNotActive, .billNotPaid, .refundExceedsPayment,
        .discountNeedsManager, .amountExceedsDue, .billPartlyPaid, .paymentIdRequired, .unknownPayment, .unknownModifier,
        .modifierChoiceInvalid, .shiftAlreadyOpen, .noOpenShift, .insufficientCash,
    ]

    public var rawValue: String {
        switch self {
        case .malformedJSON: "malformed_json"
        case .invalidField: "invalid_field"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .payloadTooLarge: "payload_too_large"
        case .unsupportedMediaType: "unsupported_media_type"
        case .billNotOpen: "bill_not_open"
        case .billEmpty: "bill_empty"
        case .billNotCheckedOut: "bill_not_checked_out"
        case .unknownMenuItem: "unknown_menu_item"
        case .menuItemUnavailable: "menu_item_unavailable"
        case .amountMismatch: "amount_mismatch"
        case .insufficientTender: "insufficient_tender"
        case .internalError: "internal_error"
        case .unavailable: "unavailable"
        case .badRequest: "bad_request"
        case .unauthorized: "unauthorized"
        case .tooManyRequests: "too_many_requests"
        case .idempotencyKeyRequired: "idempotency_key_required"
        case .idempotencyKeyReused: "idempotency_key_reused"
        case .idempotencyKeyInFlight: "idempotency_key_in_flight"
        case .unsupportedClient: "unsupported_client"
        case .invalidStack: "invalid_stack"
        case .noParent: "no_parent"
        case .missingInput: "missing_input"
        case .uriTooLong: "uri_too_long"
        case .managerOnly: "manager_only"
        case .deviceRevoked: "device_revoked"
        case .menuItemExists: "menu_item_exists"
        case .unknownCategory: "unknown_category"
        case .menuCategoryExists: "menu_category_exists"
        case .categoryNotEmpty: "category_not_empty"
        case .billSettled: "bill_settled"
        case .lineQuantityLimit: "line_quantity_limit"
        case .tooManyLines: "too_many_lines"
        case .questionAlreadyAnswered: "question_already_answered"
        case .questionNotCurrent: "question_not_current"
        case .questionNotInGame: "question_not_in_game"
        case .answerNotAChoice: "answer_not_a_choice"
        case .gameNotFinished: "game_not_finished"
        case .questionsAvailable: "questions_available"
        case .overloaded: "overloaded"
        case .timedOut: "timed_out"
        case .shuttingDown: "shutting_down"
        case .databaseUnavailable: "database_unavailable"
        case .deviceNotActive: "device_not_active"
        case .billNotPaid: "bill_not_paid"
        case .refundExceedsPayment: "refund_exceeds_payment"
        case .discountNeedsManager: "discount_needs_manager"
        case .amountExceedsDue: "amount_exceeds_due"
        case .billPartlyPaid: "bill_partly_paid"
        case .paymentIdRequired: "payment_id_required"
        case .unknownPayment: "unknown_payment"
        case .unknownModifier: "unknown_modifier"
        case .modifierChoiceInvalid: "modifier_choice_invalid"
        case .shiftAlreadyOpen: "shift_already_open"
        case .noOpenShift: "no_open_shift"
        case .insufficientCash: "insufficient_cash"
        case .unknown(let value): value
        }
    }
}

/// How hard a trivia game's questions are; `mixed`, any level.
public enum TriviaDifficulty: OpenEnumeration {
    case mixed, easy, medium, hard
    case unknown(String)

    public static let knownCases: [TriviaDifficulty] = [.mixed, .easy, .medium, .hard]

    public var rawValue: String {
        switch self {
        case .mixed: "mixed"
        case .easy: "easy"
        case .medium: "medium"
        case .hard: "hard"
        case .unknown(let value): value
        }
    }
}
