"""Drives a jst-tracker with the unmodified python `jira` client (pycontribs/jira 3.4).

Run by python-jira.test.ts: argv[1] is a JSON object {server, assigner: [email, token],
executor: [email, token], project}. Prints one JSON object with what each call returned; the
test asserts on it and on the tracker's state afterwards. Every call is the client's own public
method, except paging /search/jql (see search_jql below).
"""
import json
import sys

from jira import JIRA, JIRAError


def adf(text):
    return {"type": "doc", "version": 1, "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}]}


def error_of(call):
    """Runs call and returns {status, text} of the JIRAError it must raise."""
    try:
        call()
    except JIRAError as e:
        return {"status": e.status_code, "text": e.text, "body": e.response.json() if e.response is not None and e.response.text else None}
    raise AssertionError("expected a JIRAError")


def main():
    cfg = json.loads(sys.argv[1])
    options = {"rest_api_version": "3"}
    # Start-up as the client does it by default: GET /serverInfo (get_server_info=True).
    jira = JIRA(server=cfg["server"], basic_auth=tuple(cfg["assigner"]), options=options)
    executor = JIRA(server=cfg["server"], basic_auth=tuple(cfg["executor"]), options=options)
    out = {"deploymentType": jira.deploymentType, "version": list(jira._version)}

    out["myself"] = jira.myself()["emailAddress"]
    out["fields"] = sorted(f["id"] for f in jira.fields())
    # The JQL-name → field-id map the client builds from GET /field (clauseNames) and uses in searches.
    out["fieldsCache"] = {name: jira._fields_cache[name] for name in ("summary", "type")}
    out["projects"] = [p.key for p in jira.projects()]
    out["executorProjects"] = [p.key for p in executor.projects()]
    project = jira.project(cfg["project"])
    out["project"] = {"key": project.key, "name": project.name, "lead": project.lead.displayName}
    out["projectHidden"] = error_of(lambda: executor.project("SEC"))["status"]
    out["statuses"] = sorted({s.name for s in jira.statuses()})
    out["issueTypes"] = [t.name for t in jira.issue_types()]
    out["priorities"] = [p.name for p in jira.priorities()]
    # Single items by id, as the client fetches them (and as the lists' self links name them)
    me = jira.myself()
    out["user"] = jira.user(me["accountId"]).displayName
    out["single"] = [jira.status("In Progress").name, jira.priority("3").name, jira.issue_type("10002").name]

    # create (project as a key: the client looks its id up with GET /project/{key}) and get
    parent = jira.create_issue(project=cfg["project"], summary="Parent from python jira", issuetype={"name": "Task"}, description=adf("Made by python jira"))
    sub = jira.create_issue(project=cfg["project"], summary="Sub-task from python jira", issuetype={"name": "Subtask"}, parent={"key": parent.key})
    for i in range(3):
        jira.create_issue(project=cfg["project"], summary=f"Page filler {i}", issuetype={"name": "Task"})
    got = jira.issue(parent.key)
    out["created"] = {"parent": parent.key, "sub": sub.key, "summary": got.fields.summary, "status": got.fields.status.name,
                      "subtasks": [s.key for s in got.fields.subtasks]}

    # search: 3.4's search_issues still calls the removed GET /search, which the hosted service
    # answers 410 (as this tracker does); the enhanced search pages with nextPageToken.
    out["searchIssues"] = error_of(lambda: jira.search_issues(f"project = {cfg['project']}", maxResults=2))
    out["searchPages"] = search_jql(jira, f"project = {cfg['project']} ORDER BY key", 2)

    # comments
    comment = jira.add_comment(parent.key, adf("PR target branch: main Worktree: /tmp/w"))
    out["comment"] = {"id": comment.id, "author": comment.author.displayName}
    out["comments"] = [c.raw["body"]["content"][0]["content"][0]["text"] for c in jira.comments(parent.key)]
    out["plainComment"] = error_of(lambda: jira.add_comment(parent.key, "plain text is not ADF"))

    # transitions (by name, as the client resolves it) and assign (through /rest/api/latest)
    out["transitions"] = sorted(t["name"] for t in executor.transitions(parent.key))
    executor.transition_issue(parent.key, "In Progress")
    out["afterTransition"] = jira.issue(parent.key).fields.status.name
    jira.assign_issue(parent.key, cfg["executor"][0])
    out["assignee"] = jira.issue(parent.key).fields.assignee.displayName

    # delete with sub-tasks: the client sends deleteSubtasks=True (a capital T)
    out["deleteWithoutFlag"] = error_of(lambda: jira.issue(parent.key).delete())["status"]
    jira.issue(parent.key).delete(deleteSubtasks=True)
    out["afterDelete"] = [error_of(lambda k=k: jira.issue(k))["status"] for k in (parent.key, sub.key)]

    print(json.dumps(out))


def search_jql(jira, jql, page):
    """Pages GET /search/jql through the client's own session: 3.4 predates the enhanced search."""
    keys, token, pages = [], None, 0
    while True:
        params = {"jql": jql, "maxResults": page, "fields": "summary"}
        if token:
            params["nextPageToken"] = token
        body = jira._get_json("search/jql", params=params)
        pages += 1
        keys += [i["key"] for i in body["issues"]]
        token = body.get("nextPageToken")
        if body.get("isLast", token is None) or pages > 50:
            return {"keys": keys, "pages": pages}


if __name__ == "__main__":
    main()
