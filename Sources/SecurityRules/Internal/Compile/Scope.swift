/// A declared user function, during compilation.
final class FunctionInfo {
    let declaration: FunctionDecl
    let scope: Scope
    let compiled: CompiledFunction
    var compiledBody = false
    /// The user functions its body calls.
    var callees: [FunctionReference] = []

    init(declaration: FunctionDecl, scope: Scope, compiled: CompiledFunction) {
        self.declaration = declaration
        self.scope = scope
        self.compiled = compiled
    }
}

/// A function a scope declares or a body calls, referred to without keeping it alive, so that
/// neither a scope with its functions (which refer to the scope) nor a recursive function forms
/// a cycle of references, which would never be freed. `Compiler.allFunctions` holds them.
struct FunctionReference {
    unowned let info: FunctionInfo
}

/// A lexical scope: the service, a match block (its path variables and functions) or a
/// function body (parameters and `let`s).
final class Scope {
    let parent: Scope?
    var functions: [String: FunctionReference] = [:]
    /// Path variables declared here, by name: their index among the values bound for the chain.
    var pathVariables: [String: Int] = [:]
    /// Parameters and `let`s, by name: their slot.
    var slots: [String: Int] = [:]
    /// Set on reading a slot, to find unused variables.
    var usedSlots: Set<Int> = []
    /// The function being compiled, in a function scope.
    var function: FunctionInfo?

    init(parent: Scope?) {
        self.parent = parent
    }

    func lookupFunction(_ name: String) -> FunctionInfo? {
        var scope: Scope? = self
        while let current = scope {
            if let function = current.functions[name] { return function.info }
            scope = current.parent
        }
        return nil
    }

    /// The enclosing function scope, if any.
    var functionScope: Scope? {
        var scope: Scope? = self
        while let current = scope {
            if current.function != nil { return current }
            scope = current.parent
        }
        return nil
    }

    enum Name {
        case slot(Int, Scope)
        case pathVariable(Int)
        case none
    }

    func lookupName(_ name: String) -> Name {
        var scope: Scope? = self
        while let current = scope {
            if let slot = current.slots[name] { return .slot(slot, current) }
            if let index = current.pathVariables[name] { return .pathVariable(index) }
            scope = current.parent
        }
        return .none
    }
}

extension Scope {
    /// The variables visible here (parameters, `let`s bound so far, path variables), innermost
    /// scope first, each scope's in name order: the candidates for a mistyped name.
    var visibleVariables: [String] {
        var names: [String] = []
        var scope: Scope? = self
        while let current = scope {
            names += current.slots.keys.sorted() + current.pathVariables.keys.sorted()
            scope = current.parent
        }
        return names
    }

    /// The user functions visible here, innermost scope first, each scope's in name order.
    var visibleFunctions: [String] {
        var names: [String] = []
        var scope: Scope? = self
        while let current = scope {
            names += current.functions.keys.sorted()
            scope = current.parent
        }
        return names
    }
}
