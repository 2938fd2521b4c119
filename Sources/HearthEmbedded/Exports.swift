// `import HearthEmbedded` gives the whole client API: the embedded backend adds to `Hearth`,
// it does not replace it.
@_exported import Hearth
