// Streamlit's components v1 protocol, by hand: the same four messages streamlit-component-lib
// sends and receives, without its React and Apache Arrow (the editor needs neither).

const API_VERSION = 1;

function send(type, data) {
  window.parent.postMessage({ isStreamlitMessage: true, type, ...data }, "*");
}

/** Call `onRender({args, theme, disabled})` on every render message; announce readiness. */
export function connect(onRender) {
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return;
    const message = event.data;
    if (message && message.type === "streamlit:render") onRender(message);
  });
  send("streamlit:componentReady", { apiVersion: API_VERSION });
}

export function setComponentValue(value) {
  send("streamlit:setComponentValue", { value, dataType: "json" });
}

export function setFrameHeight(height) {
  send("streamlit:setFrameHeight", { height });
}
