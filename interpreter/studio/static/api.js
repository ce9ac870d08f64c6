// The studio's one door to its server: every call carries the session's token, and every
// failure becomes an Error whose message a designer can read (the server's {error} text).

/** The session's token, from the page's address (?token=...). */
export function pageToken() {
  return new URLSearchParams(window.location.search).get("token") || "";
}

/** A function api(method, url, body) -> Promise<json> bound to `token`. */
export function makeApi(token) {
  return async function api(method, url, body) {
    const init = { method, headers: { "X-Studio-Token": token } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, init);
    } catch (_) {
      throw new Error("The studio is not answering: is `tabletop studio` still running?");
    }
    let data = null;
    try {
      data = await response.json();
    } catch (_) {
      data = null;
    }
    if (!response.ok) {
      const error = new Error((data && data.error) || describeStatus(response.status, url));
      error.status = response.status;
      error.data = data;
      throw error;
    }
    return data || {};
  };
}

function describeStatus(status, url) {
  if (status === 401 || status === 403) {
    return "The studio refused this request: reopen the page from the address `tabletop studio` printed.";
  }
  if (status === 404) {
    return `This studio cannot do that yet (it has no ${String(url).split("?")[0]}).`;
  }
  if (status === 409) return "The file changed on disk.";
  return `The studio could not do that (status ${status}).`;
}
