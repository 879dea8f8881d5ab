"""Pure Python, never Streamlit: one package per capability.

`order` (the seed models, graphs, presets, schema options), `jsontext` (text -> JSON with
limits and positions), `validate` (the model alone and LangGraph's entry), `trace` (run and
record a graph), `project` (your own model and graph), and the labs `probes`, `tools`,
`retry`. Data flows one way: text -> jsontext -> validate -> trace.
"""
