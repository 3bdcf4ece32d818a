/// Who draws a screen: the app's own implementation of the screen type (`native`), or the
/// app's generic component renderer, from a component tree in the payload (`declarative`).
public enum Renderer: String, Sendable, Hashable {
    case native
    case declarative
}
